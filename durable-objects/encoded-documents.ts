import { BSON, type Document } from 'mongodb';
import { DocumentSequence, makeDocumentSequence } from 'mongodb/lib/cmap/commands';
import { concatBytes } from '../worker/platform/bytes';

// A command's list of documents may go as the driver's document sequence: each document encoded to BSON once, where
// it is made, and written to the wire as those bytes (OP_MSG's kind 1 section, as the driver's own insert batches
// go). Through the database gateway the bytes cross as they are: no plain copy, clone and revival of every field
// on the way, and the gateway's driver does not encode the documents again (worker/platform/db/gateway-store.ts).

export type { DocumentSequence };

/**
 * `documents` encoded once, for the command field `field`: the driver sends them as a document sequence. As the
 * driver encodes an insert: undefined values stored as null, key names not checked.
 */
export function encodedDocuments(field: string, documents: Document[]): DocumentSequence {
  // All of them in one encoding, as an array, and a view of each element: one buffer, where encoding them one by
  // one allocates a buffer for each, a costly call in workerd.
  const whole = BSON.serialize({ d: documents }, { ignoreUndefined: false, checkKeys: false });
  return makeDocumentSequence(field, documents, arrayElements(whole));
}

/** The embedded documents of `{ d: [ ... ] }` in BSON, as views into it. */
function arrayElements(bytes: Uint8Array): Uint8Array[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The outer document's length (4 bytes), the array's type and key ("d", 3 bytes), the array's length (4 bytes).
  const end = 4 + 3 + view.getInt32(7, true) - 1;
  const elements: Uint8Array[] = [];
  for (let at = 11; at < end; ) {
    if (bytes[at] !== BSON.BSONType.object) throw new TypeError('Only documents can be encoded for a sequence.');
    at = bytes.indexOf(0, at + 1) + 1;
    const length = view.getInt32(at, true);
    elements.push(bytes.subarray(at, at + length));
    at += length;
  }
  return elements;
}

export function isDocumentSequence(value: unknown): value is DocumentSequence {
  return value instanceof DocumentSequence;
}

/**
 * The documents' BSON one after another, in a buffer of their own. Not each document's buffer apart: the encoder
 * hands out slices of a shared pool, and structured clone would copy each slice's whole pool.
 */
export function sequenceBytes(sequence: DocumentSequence): Uint8Array {
  return concatBytes(sequence.chunks.slice(1));
}

/** Views of each document in `sequenceBytes`' output: a BSON document starts with its own length. */
export function splitDocuments(bytes: Uint8Array): Uint8Array[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const documents: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; ) {
    const length = at + 4 <= bytes.length ? view.getInt32(at, true) : -1;
    // The smallest document is 5 bytes (its length and the closing zero).
    if (length < 5 || at + length > bytes.length) throw new Error(`Encoded documents are cut short at byte ${at}.`);
    documents.push(bytes.subarray(at, at + length));
    at += length;
  }
  return documents;
}

/**
 * A sequence of documents that arrive already encoded. The driver keeps a document per entry only for command
 * monitoring, which the gateway's clients do not turn on, so each is left empty rather than decoded.
 */
export function sequenceOf(field: string, documents: Uint8Array[]): DocumentSequence {
  return makeDocumentSequence(
    field,
    documents.map(() => ({})),
    documents,
  );
}
