import type { ObjectId } from 'mongodb';

/**
 * A notice about a rider's own account (a suspension set or lifted): what the device shows and where the app opens.
 * The accounts domain makes them and the notifications domain sends them (handed in where the app is composed).
 */
export interface AccountNotice {
  userId: ObjectId;
  title: string;
  body: string;
  /** The app's deep link; the account screen shows the details (GET /api/users/me). */
  url: string;
  /** What the notice is about, for the app (`data.kind`). */
  kind: string;
  data?: Record<string, string | number | boolean>;
}
