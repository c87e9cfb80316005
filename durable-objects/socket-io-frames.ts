import { decodePacket, type Packet as EnginePacket, encodePacket } from 'engine.io-parser';
import { Decoder, Encoder, type Packet, PacketType } from 'socket.io-parser';

// Engine.IO v4 and Socket.IO v5 frames over one WebSocket (socketio/engine.io-protocol and
// socket.io-protocol): each WebSocket message is one Engine.IO packet, and an Engine.IO
// `message` packet carries one Socket.IO packet. The parsers are the ones socket.io itself uses.

export { type Packet, PacketType };

/** What the server announces in the open packet; the client times out after pingInterval + pingTimeout without a ping. */
export interface Handshake {
  sid: string;
  pingInterval: number;
  pingTimeout: number;
  maxPayload: number;
}

function engineFrame(packet: EnginePacket): string {
  let frame = '';
  // supportsBinary=true: the base64 path needs FileReader, which workerd lacks (../shared/toolchain-checks.md).
  encodePacket(packet, true, (encoded) => {
    frame = encoded as string;
  });
  return frame;
}

/** The first packet: a WebSocket offers no upgrades, a polling session offers the WebSocket. */
export const openFrame = (handshake: Handshake, upgrades: string[] = []) =>
  engineFrame({ type: 'open', data: JSON.stringify({ ...handshake, upgrades }) });

export const PING_FRAME = engineFrame({ type: 'ping' });
export const PONG_FRAME = engineFrame({ type: 'pong' });
/** Answers a pong without waking the room: socket.io-client ignores a noop. */
export const NOOP_FRAME = engineFrame({ type: 'noop' });
export const CLOSE_FRAME = engineFrame({ type: 'close' });
/** The WebSocket probe of an upgrade from polling, and its answer (engine.io-protocol, Upgrade). */
export const PROBE_FRAME = engineFrame({ type: 'ping', data: 'probe' });
export const PROBE_ANSWER_FRAME = engineFrame({ type: 'pong', data: 'probe' });
export const UPGRADE_FRAME = engineFrame({ type: 'upgrade' });

const encoder = new Encoder();

/** One Socket.IO packet as a WebSocket text frame; the rooms never send binary. */
export function packetFrame(packet: Packet): string {
  const [encoded] = encoder.encode(packet);
  return engineFrame({ type: 'message', data: encoded as string });
}

export const connectedFrame = (nsp: string, sid: string) =>
  packetFrame({ type: PacketType.CONNECT, nsp, data: { sid } });

/** socket.io-client surfaces this as `connect_error` with `err.message`. */
export const connectErrorFrame = (nsp: string, message: string) =>
  packetFrame({ type: PacketType.CONNECT_ERROR, nsp, data: { message } });

export const eventFrame = (nsp: string, name: string, payload: unknown) =>
  packetFrame({ type: PacketType.EVENT, nsp, data: [name, payload] });

export const ackFrame = (nsp: string, id: number, args: unknown[]) =>
  packetFrame({ type: PacketType.ACK, nsp, id, data: args });

export const disconnectFrame = (nsp: string) => packetFrame({ type: PacketType.DISCONNECT, nsp });

/** What one incoming WebSocket message is. */
export type IncomingFrame =
  | { kind: 'ping' | 'pong' | 'close' | 'ignored' }
  | { kind: 'packet'; packet: Packet }
  | { kind: 'malformed'; reason: string };

const utf8 = new TextEncoder();

/**
 * A frame's size in bytes as Engine.IO's `maxPayload` counts it (UTF-8 on the wire). A string's length counts
 * UTF-16 units, up to three times fewer than its bytes, so it is encoded only when it could be over the limit;
 * below that the length is returned (no more than the bytes, and under the limit either way).
 */
export function frameBytes(data: string | ArrayBuffer, limit: number): number {
  if (typeof data !== 'string') return data.byteLength;
  if (data.length * 3 <= limit) return data.length;
  return utf8.encode(data).byteLength;
}

/** Whether an incoming frame is a Socket.IO connect: an Engine.IO message (`4`) carrying a CONNECT packet (`0`). */
export const isConnectFrame = (data: string | ArrayBuffer): boolean =>
  typeof data === 'string' && data.startsWith('40');

/** Reads one incoming frame; anything the protocols do not allow is `malformed`, never a throw. */
export function readFrame(data: string | ArrayBuffer): IncomingFrame {
  // The rooms take no binary attachments; their frames would only follow a binary packet, ignored below.
  if (typeof data !== 'string') return { kind: 'ignored' };
  const packet = decodePacket(data);
  switch (packet.type) {
    case 'ping':
      return { kind: 'ping' };
    case 'pong':
      return { kind: 'pong' };
    case 'close':
      return { kind: 'close' };
    case 'noop':
    case 'upgrade':
      return { kind: 'ignored' };
    case 'message':
      return typeof packet.data === 'string' ? readPacket(packet.data) : { kind: 'ignored' };
    default:
      return { kind: 'malformed', reason: 'not an Engine.IO v4 packet' };
  }
}

function readPacket(data: string): IncomingFrame {
  let decoded: Packet | undefined;
  const decoder = new Decoder();
  decoder.on('decoded', (packet: Packet) => {
    decoded = packet;
  });
  try {
    decoder.add(data);
  } catch (error) {
    return { kind: 'malformed', reason: error instanceof Error ? error.message : 'invalid Socket.IO packet' };
  } finally {
    decoder.destroy();
  }
  // A binary packet waits for attachments this room does not take.
  return decoded ? { kind: 'packet', packet: decoded } : { kind: 'ignored' };
}
