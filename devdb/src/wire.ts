import { BSON } from 'bson';
import { type Doc, deserialize, isPlainObject } from './values.js';

export const OP_REPLY = 1;
export const OP_QUERY = 2004;
export const OP_MSG = 2013;

export const MAX_BSON_OBJECT_SIZE = 16 * 1024 * 1024;
export const MAX_MESSAGE_BYTES = 48_000_000;
const HEADER_BYTES = 16;

const MSG_CHECKSUM_PRESENT = 1;
const MSG_MORE_TO_COME = 2;

export interface Frame {
  requestId: number;
  opCode: number;
  /** Everything after the 16-byte header. */
  body: Buffer;
}

/** A command from either opcode, normalised to one shape. */
export interface Request {
  requestId: number;
  opCode: typeof OP_QUERY | typeof OP_MSG;
  db: string;
  command: Doc;
  /** OP_MSG moreToCome (w:0 writes): the client wants no reply. */
  moreToCome: boolean;
}

export class ProtocolError extends Error {}

/** Reassembles length-prefixed messages from arbitrary TCP chunks. */
export class FrameReader {
  private buf: Buffer = Buffer.alloc(0);

  push(chunk: Buffer): Frame[] {
    this.buf = this.buf.length === 0 ? chunk : Buffer.concat([this.buf, chunk]);
    const frames: Frame[] = [];
    let off = 0;
    while (this.buf.length - off >= 4) {
      const len = this.buf.readInt32LE(off);
      if (len < HEADER_BYTES || len > MAX_MESSAGE_BYTES) {
        throw new ProtocolError(`invalid message length ${len}`);
      }
      if (this.buf.length - off < len) break;
      frames.push({
        requestId: this.buf.readInt32LE(off + 4),
        opCode: this.buf.readInt32LE(off + 12),
        body: this.buf.subarray(off + HEADER_BYTES, off + len),
      });
      off += len;
    }
    this.buf = off === this.buf.length ? Buffer.alloc(0) : this.buf.subarray(off);
    return frames;
  }
}

function readCString(buf: Buffer, off: number): [string, number] {
  const end = buf.indexOf(0, off);
  if (end < 0) throw new ProtocolError('unterminated cstring');
  return [buf.toString('utf8', off, end), end + 1];
}

function readDoc(buf: Buffer, off: number, limit: number): [Doc, number] {
  if (limit - off < 5) throw new ProtocolError('truncated BSON document');
  const size = buf.readInt32LE(off);
  if (size < 5 || off + size > limit) throw new ProtocolError('invalid BSON document size');
  return [deserialize(buf.subarray(off, off + size)), off + size];
}

export function parseRequest(frame: Frame): Request {
  if (frame.opCode === OP_MSG) return parseMsg(frame);
  if (frame.opCode === OP_QUERY) return parseQuery(frame);
  throw new ProtocolError(`unsupported opCode ${frame.opCode}`);
}

function parseMsg(frame: Frame): Request {
  const { body } = frame;
  const flags = body.readUInt32LE(0);
  // The CRC-32C trailer is only an integrity hint on a local TCP link; skip it.
  const end = flags & MSG_CHECKSUM_PRESENT ? body.length - 4 : body.length;
  let command: Doc | undefined;
  const sequences: [string, Doc[]][] = [];
  let off = 4;
  while (off < end) {
    const kind = body[off++];
    if (kind === 0) {
      [command, off] = readDoc(body, off, end);
    } else if (kind === 1) {
      const size = body.readInt32LE(off);
      const sectionEnd = off + size;
      if (size < 5 || sectionEnd > end) throw new ProtocolError('invalid document sequence size');
      let [identifier, p] = readCString(body, off + 4);
      const docs: Doc[] = [];
      while (p < sectionEnd) {
        let doc: Doc;
        [doc, p] = readDoc(body, p, sectionEnd);
        docs.push(doc);
      }
      sequences.push([identifier, docs]);
      off = sectionEnd;
    } else {
      throw new ProtocolError(`unknown OP_MSG section kind ${String(kind)}`);
    }
  }
  if (!command) throw new ProtocolError('OP_MSG without a body section');
  for (const [identifier, docs] of sequences) {
    const existing = command[identifier];
    command[identifier] = Array.isArray(existing) ? [...existing, ...docs] : docs;
  }
  const db = command.$db;
  if (typeof db !== 'string') throw new ProtocolError('OP_MSG command is missing $db');
  return { requestId: frame.requestId, opCode: OP_MSG, db, command, moreToCome: (flags & MSG_MORE_TO_COME) !== 0 };
}

function parseQuery(frame: Frame): Request {
  const { body } = frame;
  const [ns, afterNs] = readCString(body, 4);
  // numberToSkip and numberToReturn (8 bytes) have no meaning for commands.
  let [query] = readDoc(body, afterNs + 8, body.length);
  if (!ns.endsWith('.$cmd')) throw new ProtocolError(`OP_QUERY is only supported for commands, not ${ns}`);
  // Read preferences used to be sent by wrapping the command in $query.
  if (isPlainObject(query.$query)) query = query.$query;
  return { requestId: frame.requestId, opCode: OP_QUERY, db: ns.slice(0, -5), command: query, moreToCome: false };
}

let nextRequestId = 1;

function header(totalLength: number, responseTo: number, opCode: number): Buffer {
  const h = Buffer.allocUnsafe(HEADER_BYTES);
  h.writeInt32LE(totalLength, 0);
  h.writeInt32LE(nextRequestId, 4);
  nextRequestId = (nextRequestId + 1) & 0x7fffffff;
  h.writeInt32LE(responseTo, 8);
  h.writeInt32LE(opCode, 12);
  return h;
}

/** OP_REPLY carrying one document: the answer to a legacy OP_QUERY command. */
export function encodeReply(responseTo: number, doc: Doc): Buffer {
  const bson = BSON.serialize(doc);
  const fields = Buffer.alloc(20);
  fields.writeInt32LE(1, 16);
  return Buffer.concat([header(HEADER_BYTES + 20 + bson.length, responseTo, OP_REPLY), fields, bson]);
}

/** OP_MSG with a single kind-0 section and no flags. */
export function encodeMsg(responseTo: number, doc: Doc): Buffer {
  const bson = BSON.serialize(doc);
  const prefix = Buffer.alloc(5);
  return Buffer.concat([header(HEADER_BYTES + 5 + bson.length, responseTo, OP_MSG), prefix, bson]);
}
