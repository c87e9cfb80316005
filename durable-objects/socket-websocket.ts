import type { SocketAttachment } from './socket-attachment';
import type { Link } from './socket-link';

// A hibernatable WebSocket keeps what the shard knows of it in its attachment, so it survives eviction.

export const attachmentOf = (ws: WebSocket) => ws.deserializeAttachment() as SocketAttachment;

/** False when the socket is gone (it closed while the room awaited). */
export function storeAttachment(ws: WebSocket, attachment: SocketAttachment): boolean {
  try {
    ws.serializeAttachment(attachment);
    return true;
  } catch {
    return false;
  }
}

/** A WebSocket accepted with the Hibernation API; its pongs are answered by the runtime, which keeps their time. */
export function webSocketLink(ws: WebSocket, ctx: DurableObjectState): Link {
  return {
    attachment: () => attachmentOf(ws),
    store: (attachment) => storeAttachment(ws, attachment),
    send(frame) {
      try {
        ws.send(frame);
      } catch {
        // Closed or closing: its close event cleans up.
      }
    },
    close(code, reason) {
      try {
        ws.close(code, reason);
      } catch {
        // Already closing: the runtime reports it through webSocketClose.
      }
    },
    ponged() {},
    lastPongAt: () => ctx.getWebSocketAutoResponseTimestamp(ws)?.getTime() ?? 0,
  };
}
