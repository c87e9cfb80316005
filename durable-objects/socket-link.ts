import type { SocketAttachment } from './socket-attachment';

/**
 * One Engine.IO connection as a shard sees it, whichever transport carries it: a hibernatable WebSocket
 * (its state in the socket's attachment) or a long-polling session (durable-objects/socket-polling.ts).
 */
export interface Link {
  /** A fresh copy of what the shard knows of the connection; change it, then `store` it. */
  attachment(): SocketAttachment;
  /** False when the connection is gone (it closed while the room awaited). */
  store(attachment: SocketAttachment): boolean;
  /** One Engine.IO packet, encoded; dropped when the connection closed meanwhile. */
  send(frame: string): void;
  close(code: number, reason: string): void;
  /** The client answered a ping. */
  ponged(): void;
  /** When the client last answered a ping, in ms since the epoch (0: never). */
  lastPongAt(): number;
}
