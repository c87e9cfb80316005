import { stripJpeg } from './jpeg';
import { stripPng } from './png';
import type { PhotoType } from './sniff';
import type { Stripped } from './stripped';
import { stripWebp } from './webp';

const STRIPPERS: Record<PhotoType, (bytes: Uint8Array) => Stripped> = {
  'image/jpeg': stripJpeg,
  'image/png': stripPng,
  'image/webp': stripWebp,
};

/** A photo as stored: every metadata block gone but the Orientation, the image data byte for byte, with its upright size. */
export const stripMetadata = (type: PhotoType, bytes: Uint8Array): Stripped => STRIPPERS[type](bytes);
