// An Engine.IO session id names the shard that holds it, so a polling request or an upgrade carrying
// `sid` reaches the same shard (docs/realtime.md, Topology): 4 hex digits of shard index, then 28 random.

/** The header the Worker sets on a request it hands to a shard: that shard's index. */
export const SHARD_HEADER = 'x-socket-shard';

const SESSION_ID = /^[0-9a-f]{32}$/;
const INDEX_DIGITS = 4;

/** A new session id on shard `index` (0 to 65535). */
export function newSessionId(index: number): string {
  const random = crypto.randomUUID().replaceAll('-', '').slice(INDEX_DIGITS);
  return index.toString(16).padStart(INDEX_DIGITS, '0') + random;
}

/** The shard index a session id names, or null when it is not one of ours. */
export function shardOfSession(sid: string): number | null {
  if (!SESSION_ID.test(sid)) return null;
  return Number.parseInt(sid.slice(0, INDEX_DIGITS), 16);
}

// A namespace socket id (what socket.io-client shows as `socket.id`, and a sender passes as `x-socket-id`) names its
// shard the same way, after an `s`, so the Worker can tell which shard holds the connection a message came from
// without asking: an id of the older form (32 random hex digits, no `s`) names none.
const SOCKET_ID = /^s[0-9a-f]{32}$/;

/** A new namespace socket id on shard `index`; unlike the session id it authorizes nothing, and is shown to others. */
export function newSocketId(index: number): string {
  return `s${newSessionId(index)}`;
}

/** The shard index a namespace socket id names, or null for one of the older form or not ours. */
export function shardOfSocket(sid: string): number | null {
  return SOCKET_ID.test(sid) ? shardOfSession(sid.slice(1)) : null;
}
