import { isNamespace, type Namespace } from './realtime-events';
import type { SocketAttachment } from './socket-attachment';

/** How many namespace connect packets one connection may send in a window (worker/platform/limits.ts). */
export interface ConnectBound {
  perWindow: number;
  windowMs: number;
}

/**
 * What a namespace connect packet gets: `admitted` (authenticate it), `invalid` (no such namespace: a connect_error),
 * `answering` (its namespace's connect is still being authenticated: that answer serves both, as socket.io-client
 * sends a second CONNECT when `connect()` is called again before the first is answered), `repeated` (the namespace
 * is joined: Socket.IO closes the connection on a CONNECT for a namespace the client is in), `too-many` (past the
 * connection's bound: close it).
 */
export type ConnectVerdict = 'admitted' | 'invalid' | 'answering' | 'repeated' | 'too-many';

/**
 * Counts a connect packet against its connection, in the attachment the caller then stores: every connect counts,
 * refused or not, since each costs its shard a token check at least. `answering` tells whether a connect of the
 * namespace on this connection is being authenticated now.
 */
export function admitConnect(
  attachment: SocketAttachment,
  nsp: string,
  now: number,
  bound: ConnectBound,
  answering: (nsp: Namespace) => boolean,
): ConnectVerdict {
  const current = attachment.connects;
  const window = current && now - current.since < bound.windowMs ? current : { since: now, count: 0 };
  attachment.connects = { since: window.since, count: window.count + 1 };
  if (attachment.connects.count > bound.perWindow) return 'too-many';
  if (!isNamespace(nsp)) return 'invalid';
  // Until its client is answered a joining namespace counts as being answered, though already in the attachment.
  if (answering(nsp)) return 'answering';
  return attachment.namespaces[nsp] ? 'repeated' : 'admitted';
}
