// The driver's own OP_MSG document sequence (a kind 1 section: documents already in BSON, one after another), which
// its insert, update and delete operations use for batches they have encoded once. It is not in the driver's
// public types; durable-objects/encoded-documents.ts is the one module that uses it, and its tests hold the shape.
declare module 'mongodb/lib/cmap/commands' {
  import type { Document } from 'mongodb';

  export class DocumentSequence {
    readonly field: string;
    readonly documents: Document[];
    /** The section's header first, then each document's BSON. */
    readonly chunks: Uint8Array[];
    constructor(field: string, documents?: Document[]);
  }

  export function makeDocumentSequence(
    field: string,
    documents: Document[],
    serialized: Uint8Array[],
  ): DocumentSequence;
}
