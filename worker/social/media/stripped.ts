/** A photo after its metadata went: the bytes to store, its upright size, the Orientation kept (1 when none). */
export interface Stripped {
  bytes: Uint8Array;
  width: number;
  height: number;
  orientation: number;
}

/** Bytes that start like a supported image but break its format: the upload is refused, never stored. */
export class MalformedImage extends Error {}
