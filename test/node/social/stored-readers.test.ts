import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { anyIdOf, noIdOf } from '../../../worker/platform/db/id-match';
import { idPageFilter } from '../../../worker/platform/db/id-page';
import { readFeedComment, readFeedPost, readPostCounts } from '../../../worker/social/stored-feed';
import { readConversation, readDirectMessage } from '../../../worker/social/stored-messaging';
import { readBlock, readReport } from '../../../worker/social/stored-moderation';

const id = new ObjectId();
const hex = id.toHexString();

describe('the feed readers', () => {
  it('read a post older code stored: hex ids, string counts, a link as a string, a date as epoch milliseconds', () => {
    expect(
      readFeedPost({ _id: hex, userId: hex, media: 'https://a.example/1.jpg', counts: { love: '2' }, createdAt: 0 }),
    ).toEqual({
      _id: id,
      userId: id,
      media: [{ type: 'image', url: 'https://a.example/1.jpg' }],
      counts: { love: 2, respect: 0, comments: 0 },
      held: false,
      createdAt: new Date(0),
    });
  });

  it('leave a post with nothing to show, or no usable id, unread', () => {
    expect(readFeedPost({ _id: id, text: '', media: [{ type: 'video' }] })).toBeUndefined();
    expect(readFeedPost({ _id: 'post-1', text: 'hi' })).toBeUndefined();
  });

  it('read counts from anything: missing, null, a list, negative or fractional', () => {
    expect(readPostCounts(undefined)).toEqual({ love: 0, respect: 0, comments: 0 });
    expect(readPostCounts([1, 2])).toEqual({ love: 0, respect: 0, comments: 0 });
    expect(readPostCounts({ love: -3, respect: '4.7', comments: null })).toEqual({ love: 0, respect: 4, comments: 0 });
  });

  it('read a comment without an author, and leave one without text unread', () => {
    expect(readFeedComment({ _id: id, postId: hex, text: 'yo', createdAt: '2020-01-01' })).toMatchObject({
      postId: id,
      text: 'yo',
    });
    expect(readFeedComment({ _id: id, postId: id, text: null })).toBeUndefined();
  });
});

describe('the messaging readers', () => {
  it('read a conversation with hex participants (each once), odd markers and no activity date', () => {
    const conversation = readConversation({
      _id: hex,
      participantIds: [hex, 'nobody', id],
      readMarkers: [{ userId: hex, messageId: 'x', readAt: 'never' }, { messageId: id }, 'junk'],
      updatedAt: '2021-02-03T00:00:00Z',
    });
    expect(conversation).toMatchObject({
      _id: id,
      participantIds: [id],
      lastMessageId: null,
      lastActivityAt: new Date('2021-02-03T00:00:00Z'),
    });
    expect(conversation!.readMarkers).toEqual([{ userId: id, messageId: null, readAt: conversation!.createdAt }]);
  });

  it('leave a message without text unread, and read one whose sender is gone', () => {
    expect(readDirectMessage({ _id: id, conversationId: id, text: null })).toBeUndefined();
    expect(readDirectMessage({ _id: id, conversationId: hex, text: 'hi' })).toMatchObject({ conversationId: id });
  });
});

describe('the moderation readers', () => {
  it('read a block in hex ids and a report with an unknown reason and no status', () => {
    expect(readBlock({ _id: id, userId: hex, blockedUserId: hex })).toMatchObject({ userId: id, blockedUserId: id });
    expect(readBlock({ _id: id, userId: hex })).toBeUndefined();
    expect(readReport({ _id: id, targetType: 'post', targetId: hex, reason: 'rude' })).toMatchObject({
      reason: 'other',
      status: 'open',
      targetId: id,
    });
    expect(readReport({ _id: id, targetType: 'spot', targetId: id })).toBeUndefined();
  });
});

describe('id conditions', () => {
  it('match both stored forms, and page on ObjectIds only', () => {
    expect(anyIdOf(id)).toEqual({ $in: [id, hex] });
    expect(noIdOf(id)).toEqual({ $nin: [id, hex] });
    expect(idPageFilter(id)).toEqual({ _id: { $lt: id } });
    expect(idPageFilter(undefined)).toEqual({ _id: { $gte: new ObjectId('000000000000000000000000') } });
  });
});
