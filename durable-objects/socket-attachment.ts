import type { Namespace } from './realtime-events';

/** A namespace a socket joined, as whom. */
export interface NamespaceSession {
  sid: string;
  userId: string;
  /** The opt-in session of the token it joined with, so revoking that session alone closes it. */
  session?: string;
  /** The account's token version the token was signed at, so ending every earlier token closes it. */
  tokenVersion?: number;
  /** The conversation the client says it shows on screen (`conversation:viewing`, /messages only). */
  viewing?: string;
}

/** Everything a shard knows about one socket; it lives in the socket's attachment, so it survives hibernation. */
export interface SocketAttachment {
  /** Engine.IO session id, sent in the open packet. */
  eid: string;
  connectedAt: number;
  /** The `token` query parameter of the upgrade, for clients that send it there instead of in `auth`. */
  queryToken: string | null;
  namespaces: Partial<Record<Namespace, NamespaceSession>>;
  /** A WebSocket probing to take over the polling session `eid`: it carries nothing until the client's upgrade packet. */
  probing?: true;
  /** How many viewing changes the socket reported, so the directory keeps the latest (worker/platform/realtime/directory.ts). */
  viewingSeq?: number;
  /** Namespace connect packets the client sent in the current window (durable-objects/socket-connects.ts). */
  connects?: { since: number; count: number };
}

/**
 * Sets the conversation a namespace session shows (null: none). Answers the change to report to
 * the directory, numbered across the socket's sessions, or null when nothing changed.
 */
export function changeViewing(
  attachment: SocketAttachment,
  nsp: Namespace,
  conversationId: string | null,
): { userId: string; seq: number } | null {
  const session = attachment.namespaces[nsp];
  if (!session || (session.viewing ?? null) === conversationId) return null;
  if (conversationId) session.viewing = conversationId;
  else delete session.viewing;
  attachment.viewingSeq = (attachment.viewingSeq ?? 0) + 1;
  return { userId: session.userId, seq: attachment.viewingSeq };
}

/** Who a namespace connect admitted: the rider, and what their token was signed under. */
export interface SocketIdentity {
  userId: string;
  tokenVersion: number;
  sessionId?: string;
}

/**
 * Tokens that stopped admitting a rider: every one signed below the account's version now, those of some opt-in
 * sessions, or every token of an account that is gone or suspended.
 */
export type EndedTokens =
  | { belowVersion: number }
  | { sessions: string[] }
  | { accountDeleted: true }
  | { accountSuspended: true };

/** Whether a namespace joined with this token must close (sockets joined before versions were kept count as 0). */
export function tokenEnded(joined: NamespaceSession, ended: EndedTokens): boolean {
  if ('accountDeleted' in ended || 'accountSuspended' in ended) return true;
  if ('sessions' in ended) return joined.session !== undefined && ended.sessions.includes(joined.session);
  return (joined.tokenVersion ?? 0) < ended.belowVersion;
}
