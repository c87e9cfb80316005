import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { reminderTrick } from '../../../worker/riding/reminders/reminder-trick';

const listId = new ObjectId();
const trick = (completed: boolean, list = listId) => ({
  _id: new ObjectId(),
  listId: list,
  name: 'Heelflip',
  completed,
});
const outstanding = { _id: new ObjectId(), listId, name: 'Kickflip' };

describe('the trick a reminder names at send time', () => {
  it('is the row’s own trick while it is unfinished, even when another is longer outstanding', () => {
    const own = trick(false);
    expect(reminderTrick({ trickId: own._id, listId }, own, outstanding)).toBe(own);
  });

  it('is none once the row’s trick is complete, whatever else the list holds', () => {
    const done = trick(true);
    expect(reminderTrick({ trickId: done._id, listId }, done, outstanding)).toBeNull();
  });

  it('is the list’s longest-outstanding trick for a row planned without one or whose trick is gone', () => {
    expect(reminderTrick({ trickId: null, listId }, undefined, outstanding)).toBe(outstanding);
    expect(reminderTrick({ trickId: new ObjectId(), listId }, undefined, outstanding)).toBe(outstanding);
    expect(reminderTrick({ trickId: null, listId }, undefined, undefined)).toBeNull();
  });

  it('ignores a trick of another list under the row’s trick id', () => {
    const foreign = trick(true, new ObjectId());
    expect(reminderTrick({ trickId: foreign._id, listId }, foreign, outstanding)).toBe(outstanding);
  });
});
