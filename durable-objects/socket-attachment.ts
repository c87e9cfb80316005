import type { Namespace } from './realtime-events';

/** A namespace a socket joined, as whom. */
export interface NamespaceSession {
  sid: string;
  userId: string;
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
