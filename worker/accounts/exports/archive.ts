import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import type { Document, Filter, ObjectId } from 'mongodb';
import { documentPages } from '../../platform/db/document-pages';
import { anyIdOf } from '../../platform/db/id-match';
import type { Cleanup } from '../../platform/db/personal-data';
import type { Store } from '../../platform/db/store';
import { readId, readString, sameId } from '../../platform/db/stored-values';
import { UNNAMED_RIDER } from '../users/read-user';
import { MEDIA_FILES, mediaFileName } from './media-files';
import { PartWriter } from './part-writer';
import { ANOTHER_RIDER, asObjectIds, idsIn, type ReadableContext, readableDocument } from './readable';
import { exportReadme, type ReadmeEntry } from './readme';
import { type ExportSection, exportSections } from './sections';

/** Documents read and converted together: one accounts lookup names the other riders of the whole page. */
const PAGE = 200;
/** How often a long collection asks whether the export is still wanted, in documents. */
const WANTED_EVERY = 2_000;
/** fflate's data descriptors and central directory hold 32-bit sizes; past this the archive would be unreadable. */
const ZIP_LIMIT_BYTES = 0xffff_ffff - 64 * 1024 * 1024;

export interface ExportArchiveOptions {
  /** Every domain's personal-data rules (PERSONAL_DATA of worker/data.ts, handed in where the app is composed). */
  personalData: readonly Cleanup[];
  /** Asked between files and every few thousand documents: false (account deleted, export withdrawn) aborts. */
  stillWanted: () => Promise<boolean>;
  now?: Date;
  /** Where the rider's uploads are read from (the MEDIA bucket); the archive's own bucket when not given. */
  media?: R2Bucket;
  /** The multipart part size; R2 wants at least 5 MiB. */
  partBytes?: number;
}

export interface ExportArchive {
  /** The ZIP's size. */
  bytes: number;
  /** Documents per file, and the media files written. */
  documents: Record<string, number>;
  mediaFiles: number;
  /** The most bytes of the ZIP held in memory at once (the part buffers). */
  peakHeldBytes: number;
}

/**
 * Writes the rider's export, a ZIP, to `bucket` under `key` as it is built: each section's documents come a page at
 * a time, each upload from R2 as a stream, and the ZIP goes out in multipart parts, so memory holds a part or two
 * whatever the rider's size. Any store works: a request's (over the gateway) or a direct client's. When the export
 * stops being wanted, the upload is aborted and nothing is left; on any failure it is aborted and the error thrown.
 */
export async function writeExportArchive(
  store: Store,
  bucket: R2Bucket,
  riderId: ObjectId,
  key: string,
  options: ExportArchiveOptions,
): Promise<ExportArchive | 'withdrawn'> {
  const now = options.now ?? new Date();
  const upload = await bucket.createMultipartUpload(key, {
    httpMetadata: { contentType: 'application/zip', contentDisposition: 'attachment; filename="your-data.zip"' },
  });
  const out = new PartWriter(upload, options.partBytes);
  let zipError: Error | undefined;
  const zip = new Zip((error, chunk) => {
    if (error) zipError = error;
    else out.write(chunk);
  });
  const writer: ArchiveWriter = {
    async push(file, chunk, final = false) {
      file.push(chunk, final);
      if (zipError) throw zipError;
      if (out.bytes > ZIP_LIMIT_BYTES) throw new Error('export larger than a ZIP without ZIP64 can hold');
      await out.flush();
    },
  };
  try {
    const built = await buildArchive(store, zip, writer, riderId, { ...options, now, media: options.media ?? bucket });
    if (built === 'withdrawn' || !(await options.stillWanted())) {
      await out.abort();
      return 'withdrawn';
    }
    zip.end();
    if (zipError) throw zipError;
    await out.complete();
    return { bytes: out.bytes, ...built, peakHeldBytes: out.peakHeldBytes };
  } catch (error) {
    await out.abort().catch(() => undefined);
    throw error;
  }
}

interface ArchiveWriter {
  push(file: ZipDeflate | ZipPassThrough, chunk: Uint8Array, final?: boolean): Promise<void>;
}

type BuildOptions = ExportArchiveOptions & { now: Date; media: R2Bucket };

async function buildArchive(
  store: Store,
  zip: Zip,
  writer: ArchiveWriter,
  riderId: ObjectId,
  options: BuildOptions,
): Promise<Pick<ExportArchive, 'documents' | 'mediaFiles'> | 'withdrawn'> {
  const sections = exportSections(options.personalData);
  const account = await store.db.collection('users').findOne({ _id: riderId }, { projection: { email: 1 } });
  const riderEmail = readString(account?.email);
  const entries: ReadmeEntry[] = [];
  for (const section of sections) {
    if (!(await options.stillWanted())) return 'withdrawn';
    const file = new ZipDeflate(section.file, { level: 6 });
    file.mtime = options.now;
    zip.add(file);
    const filter = await sectionFilter(store, sections, section, riderId);
    const documents = await writeDocuments(store, writer, file, section, filter, {
      riderHex: riderId.toHexString(),
      ...(riderEmail ? { riderEmail } : {}),
      stillWanted: options.stillWanted,
    });
    if (documents === 'withdrawn') return 'withdrawn';
    entries.push({ section, documents });
  }
  const media = await writeMedia(store, zip, writer, sections, riderId, options);
  if (media === 'withdrawn') return 'withdrawn';
  const readme = new ZipDeflate('README.html', { level: 6 });
  readme.mtime = options.now;
  zip.add(readme);
  await writer.push(readme, new TextEncoder().encode(exportReadme(entries, media, options.now)), true);
  return {
    documents: Object.fromEntries(entries.map(({ section, documents }) => [section.file, documents])),
    mediaFiles: media.files,
  };
}

/** A section's selection; a thread's messages also take every message of the rider's conversations. */
async function sectionFilter(store: Store, sections: ExportSection[], section: ExportSection, riderId: ObjectId) {
  const own = section.select(riderId);
  const parent =
    section.threadOf && sections.find((candidate) => candidate.collection === section.threadOf?.collection);
  if (!section.threadOf || !parent) return own;
  const ids: ObjectId[] = [];
  const collection = store.db.collection(parent.collection);
  for await (const page of documentPages(collection, parent.select(riderId), {
    pageSize: PAGE,
    projection: { _id: 1 },
  }))
    for (const { _id } of page) {
      const id = readId(_id);
      if (id) ids.push(id);
    }
  return ids.length === 0 ? own : { $or: [own, { [section.threadOf.field]: anyIdOf(...ids) }] };
}

type DocumentsContext = Omit<ReadableContext, 'others' | 'withheld'> & { stillWanted: () => Promise<boolean> };

/** One section's documents as a JSON list, converted a page at a time. */
async function writeDocuments(
  store: Store,
  writer: ArchiveWriter,
  file: ZipDeflate,
  section: ExportSection,
  filter: Filter<Document>,
  context: DocumentsContext,
): Promise<number | 'withdrawn'> {
  const encoder = new TextEncoder();
  let written = 0;
  let sinceAsked = 0;
  await writer.push(file, encoder.encode('['));
  for await (const page of documentPages(store.db.collection(section.collection), filter, { pageSize: PAGE })) {
    const lines = await readableBatch(store, section, page, context);
    await writer.push(
      file,
      encoder.encode(lines.map((line, at) => (written + at === 0 ? '\n' : ',\n') + line).join('')),
    );
    written += page.length;
    sinceAsked += page.length;
    if (sinceAsked >= WANTED_EVERY) {
      if (!(await context.stillWanted())) return 'withdrawn';
      sinceAsked = 0;
    }
  }
  await writer.push(file, encoder.encode(written > 0 ? '\n]\n' : ']\n'), true);
  return written;
}

/** A batch of documents as JSON text, other riders named by one lookup of the accounts. */
async function readableBatch(
  store: Store,
  section: ExportSection,
  batch: Document[],
  context: DocumentsContext,
): Promise<string[]> {
  const ids = new Set<string>();
  for (const doc of batch) idsIn(doc, context.riderHex, ids);
  const others = new Map<string, string>();
  if (ids.size > 0) {
    const riders = await store.db
      .collection('users')
      .find({ _id: { $in: asObjectIds(ids) } }, { projection: { name: 1 } })
      .toArray();
    for (const rider of riders) {
      const hex = readId(rider._id)?.toHexString();
      if (!hex) continue;
      others.set(
        hex,
        section.others === 'display name' ? readString(rider.name)?.trim() || UNNAMED_RIDER : ANOTHER_RIDER,
      );
    }
  }
  const riderId = readId(context.riderHex)!;
  return batch.map((doc) => {
    const words = section.othersWords;
    const withheld = words && !sameId(doc[words.author], riderId) ? new Set(words.fields) : undefined;
    return JSON.stringify(readableDocument(doc, { ...context, others, ...(withheld ? { withheld } : {}) }));
  });
}

/** The rider's uploads, each streamed from R2 into the ZIP as stored (photos and videos are compressed already). */
async function writeMedia(
  store: Store,
  zip: Zip,
  writer: ArchiveWriter,
  sections: ExportSection[],
  riderId: ObjectId,
  options: BuildOptions,
): Promise<{ files: number; missing: number } | 'withdrawn'> {
  const found = { files: 0, missing: 0 };
  const section = sections.find((candidate) => candidate.collection === MEDIA_FILES.collection);
  if (!section) return found;
  const projection = { _id: 1, [MEDIA_FILES.key]: 1, [MEDIA_FILES.type]: 1 };
  const collection = store.db.collection(section.collection);
  for await (const page of documentPages(collection, section.select(riderId), { pageSize: PAGE, projection })) {
    for (const doc of page) {
      if (!(await options.stillWanted())) return 'withdrawn';
      const id = readId(doc._id);
      const key = readString(doc[MEDIA_FILES.key]);
      const object = id && key ? await options.media.get(key) : null;
      if (!id || !object) {
        found.missing++;
        continue;
      }
      const file = new ZipPassThrough(mediaFileName(id, readString(doc[MEDIA_FILES.type])));
      file.mtime = options.now;
      zip.add(file);
      const reader = object.body.getReader();
      for (let read = await reader.read(); !read.done; read = await reader.read()) await writer.push(file, read.value);
      await writer.push(file, new Uint8Array(0), true);
      found.files++;
    }
  }
  return found;
}
