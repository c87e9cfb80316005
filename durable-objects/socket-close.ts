/** A close frame the room sends back to a client that closed. */
export interface CloseFrame {
  code: number;
  reason: string;
}

/** The one method of a WebSocket the close rule needs (workerd's and Node's both have it). */
export interface ClosableSocket {
  close(code?: number, reason?: string): void;
}

/**
 * Codes a runtime reports in `webSocketClose` that no endpoint may put in a close frame
 * (RFC 6455 section 7.4.1), each with what the room answers instead.
 */
const RESERVED_CLOSE_CODES: Record<number, CloseFrame | null> = {
  // No status received: the peer sent a close frame without a code (socket.io-client does) and waits for ours.
  1005: { code: 1000, reason: '' },
  // Abnormal closure: the connection dropped without a close frame, so no peer is left to answer.
  1006: null,
  // TLS handshake failure: no WebSocket peer ever existed.
  1015: null,
};

// A frame carrying a code no endpoint may send (below 1000, 1004, 5000 and up) breaks the protocol.
const PROTOCOL_ERROR: CloseFrame = { code: 1002, reason: '' };

function isSendable(code: number): boolean {
  return code >= 1000 && code <= 4999 && code !== 1004 && !(code in RESERVED_CLOSE_CODES);
}

/**
 * The close frame a room sends from `webSocketClose(ws, code, reason)`, or null to send nothing.
 * The Hibernation API does not answer a client's close by itself (test/node/platform/socket-close-workerd.test.ts),
 * so a room echoes a real code as RFC 6455 section 5.5.1 asks and never echoes a reserved one,
 * as partyserver's `closeQuietly` (cloudflare/partykit, packages/partyserver/src/index.ts) also holds.
 */
export function closeReply(code: number, reason: string): CloseFrame | null {
  if (code in RESERVED_CLOSE_CODES) return RESERVED_CLOSE_CODES[code]!;
  return isSendable(code) ? { code, reason } : PROTOCOL_ERROR;
}

/** Answers a client's close by `closeReply`; call it from a room's `webSocketClose`. */
export function answerClose(ws: ClosableSocket, code: number, reason: string): void {
  const reply = closeReply(code, reason);
  if (!reply) return;
  try {
    ws.close(reply.code, reply.reason);
  } catch {
    // The runtime will not close this socket any more (workerd throws for one never accepted): nobody can hear a reply.
  }
}
