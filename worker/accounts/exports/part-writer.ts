/**
 * R2 multipart parts must be at least 5 MiB and all of one size but the last: 8 MiB keeps a part's buffer small
 * and still allows 80 GB in R2's 10,000 parts.
 */
export const EXPORT_PART_BYTES = 8 * 1024 * 1024;

/**
 * Cuts a stream of bytes into equal parts of an R2 multipart upload as they come. `write` only copies (the ZIP
 * library calls it synchronously); `flush` uploads every full part, so between flushes at most the part being
 * filled and the full ones of one write are held.
 */
export class PartWriter {
  readonly #upload: R2MultipartUpload;
  readonly #partBytes: number;
  #filling: Uint8Array;
  #filled = 0;
  #full: Uint8Array[] = [];
  /** Buffers whose part went up, filled again: a large export makes no garbage of a part's size per part. */
  #spare: Uint8Array[] = [];
  #parts: R2UploadedPart[] = [];
  #bytes = 0;
  /** Part buffers made: each is filling, full or spare from then on. */
  #buffers = 1;

  constructor(upload: R2MultipartUpload, partBytes = EXPORT_PART_BYTES) {
    this.#upload = upload;
    this.#partBytes = partBytes;
    this.#filling = new Uint8Array(partBytes);
  }

  get bytes(): number {
    return this.#bytes;
  }

  /** The most bytes of the ZIP held at once: every part buffer made is kept for reuse. */
  get peakHeldBytes(): number {
    return this.#buffers * this.#partBytes;
  }

  write(chunk: Uint8Array): void {
    let at = 0;
    while (at < chunk.length) {
      const taken = Math.min(chunk.length - at, this.#partBytes - this.#filled);
      this.#filling.set(chunk.subarray(at, at + taken), this.#filled);
      this.#filled += taken;
      at += taken;
      if (this.#filled === this.#partBytes) {
        this.#full.push(this.#filling);
        this.#filling = this.#spare.pop() ?? this.#newBuffer();
        this.#filled = 0;
      }
    }
    this.#bytes += chunk.length;
  }

  #newBuffer(): Uint8Array {
    this.#buffers += 1;
    return new Uint8Array(this.#partBytes);
  }

  /** Uploads the full parts, in order. */
  async flush(): Promise<void> {
    while (this.#full.length > 0) {
      const part = this.#full.shift()!;
      this.#parts.push(await this.#upload.uploadPart(this.#parts.length + 1, part));
      this.#spare.push(part);
    }
  }

  /** Uploads what is left as the last part (the only one may be empty) and completes the object. */
  async complete(): Promise<R2Object> {
    await this.flush();
    if (this.#filled > 0 || this.#parts.length === 0) {
      const last = this.#filling.subarray(0, this.#filled);
      this.#parts.push(await this.#upload.uploadPart(this.#parts.length + 1, last));
    }
    return this.#upload.complete(this.#parts);
  }

  abort(): Promise<void> {
    this.#full = [];
    return this.#upload.abort();
  }
}
