import type { ObjectId } from 'mongodb';

/** The UTC day an export is asked on, `YYYY-MM-DD`: a rider gets one export a day. */
export const exportDay = (now: Date): string => now.toISOString().slice(0, 10);

/** Where an export's file is in the MEDIA bucket; never shown to a client (downloads go through a signed link). */
export const exportKey = (riderId: ObjectId, exportId: ObjectId): string =>
  `data-exports/${riderId.toHexString()}/${exportId.toHexString()}.zip`;

/** The name the rider's browser saves the file under. */
export const exportFileName = (day: string): string => `rider-data-${day}.zip`;
