import { describe, expect, it } from 'vitest';
import { demoRequest } from '../../../worker/companion/chat/demo';
import { isSubstantiveTurn, moodOf, plainIntent } from '../../../worker/companion/chat/intents';
import { splitSentences } from '../../../worker/companion/chat/sentences';
import { LIMITS } from '../../../worker/platform/limits';

const KB10 = 10 * 1024;
const { readCharsMax } = LIMITS.companion;
/** `unit` repeated after `start` to 10 KB, then `end`. */
const fill = (start: string, unit: string, end = '') =>
  start + unit.repeat(Math.ceil((KB10 - start.length - end.length) / unit.length)) + end;

describe('rider text that made the patterns backtrack', () => {
  it.each([
    ['spaces', fill('', ' '), null],
    ['add, spaces, x', fill('add ', ' ', 'x'), null],
    ['add x, spaces, y', fill('add x', ' ', 'y'), null],
    ['add a, spaces, x', fill('add a', ' ', 'x'), null],
    ['add add add …', fill('', 'add '), null],
    ['remember that, spaces, x', fill('remember that ', ' ', 'x'), { tool: 'remember_fact', args: { fact: 'that' } }],
    ['what is a, spaces, ?', fill('what is a ', ' ', '?'), null],
    ['tabs and newlines', fill('add ', '\t\n', 'x'), null],
    ['spots in x, spaces, y', fill('spots in x', ' ', 'y'), { tool: 'search_spots', args: { place: 'x' } }],
    ['events in, spaces, x', fill('events in ', ' ', 'x'), { tool: 'search_events', args: { when: 'next-30-days' } }],
  ])('reads %s (10 KB)', (_, message, intent) => {
    expect(plainIntent(message)).toEqual(intent);
    expect(moodOf(message)).toBe('neutral');
  });

  it.each([
    ['show me, spaces, x', fill('show me ', ' ', 'x'), null],
    ['show me a kick, spaces, z', fill('show me a kick', ' ', 'z'), 'kick'],
    ['do do do …', fill('', 'do '), null],
    ['do do  do   do …', fill('', 'do do  do   '), null],
    [', do , do …', fill('', ', do '), null],
  ])('reads a demo request from %s (10 KB)', (_, message, trick) => {
    expect(demoRequest(message)).toBe(trick);
  });

  it('counts words and splits sentences of 10 KB', () => {
    expect(isSubstantiveTurn(fill('', ' '), 0)).toBe(false);
    expect(isSubstantiveTurn(fill('', 'kick '), 0)).toBe(true);
    expect(splitSentences(fill('', 'a', '.b'))).toEqual(['b']);
    expect(splitSentences(`${fill('', 'a', '.')} b`)).toEqual([fill('', 'a', '.'), 'b']);
  });
});

describe('what the patterns read of a message', () => {
  const padding = 'x'.repeat(readCharsMax);

  it('reads requests, mood and words from the first characters only', () => {
    expect(plainIntent(`${'x'.repeat(readCharsMax - 30)} add kickflip to my list`)).toEqual({
      tool: 'add_trick_to_list',
      args: { trick: 'kickflip' },
    });
    expect(plainIntent(`${padding} add kickflip to my list`)).toBeNull();
    expect(moodOf(`${padding} stoked`)).toBe('neutral');
    expect(isSubstantiveTurn(`${padding} one two three four`, 0)).toBe(false);
    expect(demoRequest(`${padding} show me a kickflip`)).toBeNull();
  });

  it('keeps runs of spaces out of what it reads, but not out of the phrases it takes', () => {
    expect(plainIntent(`add ${' '.repeat(40)}kick${'\t'.repeat(30)}flip  to my list`)).toEqual({
      tool: 'add_trick_to_list',
      args: { trick: 'kick flip' },
    });
    expect(plainIntent('remember  that x')).toEqual({ tool: 'remember_fact', args: { fact: 'that x' } });
    expect(plainIntent('my  name is Sam')).toBeNull();
  });

  it('never calls a tool with a blank argument', () => {
    expect(plainIntent('add   to my list')).toEqual({ tool: 'list_my_tricks', args: {} });
    expect(plainIntent('add a   to my list')).toEqual({ tool: 'add_trick_to_list', args: { trick: 'a' } });
    expect(plainIntent('spots in   ?')).toBeNull();
    expect(plainIntent('what is a  ?')).toBeNull();
    expect(plainIntent('remember  ?')).toBeNull();
    expect(plainIntent('events in  ,')).toEqual({ tool: 'search_events', args: { when: 'next-30-days' } });
  });

  it('reads a demo request from the first asks of a message', () => {
    expect(demoRequest('do - show me a kickflip')).toBe('kickflip');
    expect(demoRequest('could you do - show me a kickflip')).toBe('kickflip');
    expect(demoRequest('do - do - show me a kickflip')).toBeNull();
    expect(LIMITS.companion.demoAsksMax).toBe(2);
  });
});
