import type { ObjectId } from 'mongodb';
import type { CollectionName } from '../../platform/db/collections';

/** Where the rider's uploads are listed: each document names its file in the MEDIA bucket (worker/social/media/). */
export const MEDIA_FILES = { collection: 'media' as CollectionName, key: 'key', type: 'type' };

const EXTENSIONS: Record<string, string> = { jpeg: 'jpg', quicktime: 'mov', 'x-m4v': 'm4v' };

/** An upload's path in the archive: by its id in media.json, with an extension from its stored type. */
export function mediaFileName(id: ObjectId, type: string | undefined): string {
  return `media/${id.toHexString()}${extensionOf(type)}`;
}

/** A file extension from a stored media type (`image/jpeg` → `.jpg`); none for an unreadable one. */
export function extensionOf(type: string | undefined): string {
  const subtype = type?.split('/')[1]?.toLowerCase();
  if (!subtype) return '';
  const extension = EXTENSIONS[subtype] ?? subtype.replace(/[^a-z0-9]/g, '');
  return extension ? `.${extension}` : '';
}
