import { z } from 'zod';

/**
 * Every event of the /feed and /messages namespaces, in one place: the rooms, the REST publishers
 * (worker/platform/realtime/publish.ts) and the tests import these types, and docs/realtime.md documents them.
 * Names and payloads are a contract with three platforms from the day they ship (the interface spec,
 * Versioning): add fields and events, never rename or remove one.
 */

export const NAMESPACES = ['/feed', '/messages'] as const;
export type Namespace = (typeof NAMESPACES)[number];

export const isNamespace = (name: string): name is Namespace => (NAMESPACES as readonly string[]).includes(name);

/** A rider as every client shows one (worker/accounts/users/views.ts `publicUserView`). */
export interface PublicUserPayload {
  _id: string;
  name: string;
  imageUri?: string;
}

export interface ReactionCountsPayload {
  love: number;
  respect: number;
}

/** A post as `GET /api/feed` shows it to the public: no reader's own reaction or saved state. */
export interface PostPayload {
  _id: string;
  author: PublicUserPayload | null;
  text?: string;
  media: { type: string; url: string }[];
  spotId?: string;
  counts: ReactionCountsPayload & { comments: number };
  createdAt: string;
}

export interface CommentPayload {
  _id: string;
  postId: string;
  author: PublicUserPayload | null;
  text: string;
  createdAt: string;
}

export interface MessagePayload {
  _id: string;
  conversationId: string;
  sender: PublicUserPayload | null;
  text: string;
  createdAt: string;
}

/** What the server emits on /feed. */
export type FeedEvent =
  /** A new post, to every connected rider but those on either side of a block with its author. */
  | { namespace: '/feed'; name: 'post:created'; payload: { post: PostPayload } }
  /** A post deleted by its author or removed by an admin. */
  | { namespace: '/feed'; name: 'post:removed'; payload: { postId: string } }
  /** A post's reaction counts after a reaction was added, switched or taken back; not to those on either side of a block with its author. */
  | { namespace: '/feed'; name: 'post:reactions'; payload: { postId: string; counts: ReactionCountsPayload } }
  /** A comment on one of your posts, to you alone. */
  | { namespace: '/feed'; name: 'comment:created'; payload: { postId: string; comment: CommentPayload } }
  /** A rider started following you, to you alone; `homie` when you already follow them back. */
  | { namespace: '/feed'; name: 'rider:followed'; payload: { follower: PublicUserPayload; homie: boolean } };

/** What the server emits on /messages. */
export type MessagesEvent =
  /** A new message, to every participant's connections except the one that sent it. */
  | { namespace: '/messages'; name: 'message:created'; payload: { conversationId: string; message: MessagePayload } }
  /** Another participant is typing; it stops by itself after `expiresInMs` unless refreshed. */
  | {
      namespace: '/messages';
      name: 'typing:start';
      payload: { conversationId: string; userId: string; expiresInMs: number };
    }
  | { namespace: '/messages'; name: 'typing:stop'; payload: { conversationId: string; userId: string } }
  /** Another participant read the conversation up to `messageId`. */
  | {
      namespace: '/messages';
      name: 'conversation:read';
      payload: { conversationId: string; userId: string; messageId: string | null; readAt: string };
    };

export type ServerEvent = FeedEvent | MessagesEvent;
export type ServerEventName = ServerEvent['name'];

const conversationId = z.string().regex(/^[0-9a-f]{24}$/, 'a 24-hex conversation id');
const conversationRef = z.object({ conversationId });

/** What a client may emit, per namespace; anything else is answered with an error acknowledgement. */
export const CLIENT_EVENTS = {
  '/feed': {},
  '/messages': {
    /** Start or refresh "typing" in a conversation you take part in. */
    'typing:start': conversationRef,
    'typing:stop': conversationRef,
    /** The conversation this socket shows on screen, or null for none: no push for its messages (docs/message-pushes.md). */
    'conversation:viewing': z.object({ conversationId: conversationId.nullable() }),
  },
} as const satisfies Record<Namespace, Record<string, z.ZodType>>;

export type ClientEvent = {
  [N in Namespace]: {
    [E in keyof (typeof CLIENT_EVENTS)[N]]: {
      namespace: N;
      name: E;
      payload: (typeof CLIENT_EVENTS)[N][E] extends z.ZodType ? z.infer<(typeof CLIENT_EVENTS)[N][E]> : never;
    };
  }[keyof (typeof CLIENT_EVENTS)[N]];
}[Namespace];

/** Client events the Worker's shard carries out; `conversation:viewing` is socket state the base shard keeps itself. */
export type RelayedClientEvent = Exclude<ClientEvent, { name: 'conversation:viewing' }>;

/** Parses a client event's name and first argument, or says what is wrong with it. */
export function parseClientEvent(
  namespace: Namespace,
  name: unknown,
  payload: unknown,
): { ok: true; event: ClientEvent } | { ok: false; error: string } {
  const schemas: Record<string, z.ZodType> = CLIENT_EVENTS[namespace];
  if (typeof name !== 'string' || !Object.hasOwn(schemas, name)) {
    return { ok: false, error: `Unknown event on ${namespace}: ${String(name)}` };
  }
  const parsed = schemas[name]!.safeParse(payload);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { ok: false, error: `${name}: ${issue.path.join('.') || 'payload'} ${issue.message}` };
  }
  return { ok: true, event: { namespace, name, payload: parsed.data } as ClientEvent };
}
