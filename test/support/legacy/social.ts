import { type CollectionSpec, DAY, HOUR } from './spec';

/** Social's and the companion's Live collections as older code stored them (their documents.ts is today's shape). */
export const SOCIAL_SPECS: CollectionSpec[] = [
  {
    collection: 'feed_posts',
    fields: {
      _id: 'ownId',
      userId: 'id',
      text: 'text',
      media: 'array',
      'media.0.type': 'enum',
      'media.0.url': 'string',
      spotId: 'id',
      counts: 'object',
      'counts.love': 'count',
      'counts.comments': 'count',
      createdAt: 'date',
    },
    base: ({ index, rider, id, at }) => ({
      userId: rider,
      text: `Legacy session ${index}`,
      media: [{ type: 'image', url: 'https://img.example.com/session.jpg' }],
      spotId: id('spots', 0),
      counts: { love: 1, respect: 0, comments: 1 },
      createdAt: at(-index * HOUR),
      updatedAt: at(-index * HOUR),
    }),
  },
  {
    collection: 'reactions',
    fields: { _id: 'ownId', postId: 'id', userId: 'id', type: 'enum', createdAt: 'date' },
    // One reaction per post and rider (a unique index), so each names a post of its own.
    base: ({ index, rider, id, at }) => ({
      postId: id('feed_posts', index),
      userId: rider,
      type: 'love',
      createdAt: at(-HOUR),
      updatedAt: at(-HOUR),
    }),
  },
  {
    collection: 'feed_comments',
    fields: { _id: 'ownId', postId: 'id', userId: 'id', text: 'text', createdAt: 'date' },
    base: ({ index, rider, id, at }) => ({
      postId: id('feed_posts', 0),
      userId: rider,
      text: `Legacy comment ${index}`,
      createdAt: at(-index * 60_000),
      updatedAt: at(-index * 60_000),
    }),
  },
  {
    collection: 'saved_posts',
    fields: { _id: 'ownId', postId: 'id', userId: 'id', createdAt: 'date' },
    base: ({ index, rider, id, at }) => ({
      postId: id('feed_posts', index),
      userId: rider,
      createdAt: at(-index * 60_000),
      updatedAt: at(-index * 60_000),
    }),
  },
  {
    collection: 'conversations',
    fields: {
      _id: 'ownId',
      participantIds: 'ids',
      participantKey: 'string',
      lastActivityAt: 'date',
      lastMessageId: 'id',
      readMarkers: 'array',
      'readMarkers.0.userId': 'id',
      'readMarkers.0.messageId': 'id',
      'readMarkers.0.readAt': 'date',
      createdAt: 'date',
    },
    // One conversation per pair (participantKey is unique): each with a legacy rider of its own.
    base: ({ index, rider, id, at }) => {
      const other = id('users', index);
      const participantIds = [rider, other];
      return {
        participantIds,
        participantKey: participantIds
          .map((participant) => participant.toHexString())
          .sort()
          .join(':'),
        lastActivityAt: at(-index * 60_000),
        lastMessageId: id('dm_messages', index),
        readMarkers: [{ userId: rider, messageId: id('dm_messages', index), readAt: at(-index * 60_000) }],
        createdAt: at(-30 * DAY),
        updatedAt: at(-index * 60_000),
      };
    },
  },
  {
    collection: 'dm_messages',
    fields: { _id: 'ownId', conversationId: 'id', userId: 'id', text: 'text', createdAt: 'date' },
    base: ({ index, rider, riders, id, at }) => ({
      conversationId: id('conversations', rider.equals(riders.owner) ? 0 : 1),
      userId: rider,
      text: `Legacy message ${index}`,
      createdAt: at(-index * 60_000),
      updatedAt: at(-index * 60_000),
    }),
  },
  {
    collection: 'bot_chats',
    fields: { _id: 'ownId', userId: 'id', role: 'enum', text: 'text', createdAt: 'date' },
    base: ({ index, rider, at }) => ({
      userId: rider,
      role: index % 2 ? 'assistant' : 'user',
      text: `Legacy chat turn ${index}`,
      createdAt: at(-index * 60_000),
      updatedAt: at(-index * 60_000),
    }),
  },
  {
    collection: 'companion_profiles',
    fields: {
      _id: 'ownId',
      userId: 'id',
      interactionCount: 'count',
      stage: 'enum',
      facts: 'array',
      name: 'string',
      sports: 'array',
      lastMood: 'enum',
      lastTurnAt: 'date',
      sessionStartedAt: 'date',
      sessionStartedBy: 'id',
      createdAt: 'date',
    },
    // One profile per rider (a unique index): each variant belongs to a rider of its own, who can chat over it.
    base: ({ index, riders, soloRider, id, at }) => ({
      userId: index === 0 ? riders.owner : index === 1 ? riders.neighbour : soloRider(index),
      interactionCount: 12,
      stage: 'acquaintance',
      facts: ['rides goofy', 'learning kickflips'],
      name: 'Legacy',
      sports: ['skateboarding'],
      lastMood: 'stoked',
      lastTurnAt: at(-HOUR),
      sessionStartedAt: at(-HOUR),
      sessionStartedBy: id('bot_chats', 0),
      createdAt: at(-60 * DAY),
      updatedAt: at(-HOUR),
    }),
  },
];
