// The analytics envelopes the benches send: the taxonomy's common names with ID properties, every 50th one
// named outside the taxonomy (quarantined).
import { ObjectId } from 'mongodb';

const NAMES = ['spot_viewed', 'trick_viewed', 'app_opened', 'event_viewed', 'spot_directions_opened'] as const;

function properties(name: (typeof NAMES)[number]) {
  const id = new ObjectId().toHexString();
  if (name === 'spot_viewed' || name === 'spot_directions_opened') return { spotId: id };
  if (name === 'trick_viewed') return { trickId: id, entryPoint: 'list' };
  if (name === 'event_viewed') return { eventId: id };
  return { coldStart: true };
}

/** The i-th envelope of a run, naming `userId` when its batch is sent signed in. */
export function envelope(i: number, userId: string | null) {
  const name = NAMES[i % NAMES.length]!;
  return {
    eventId: crypto.randomUUID(),
    name: i % 50 === 49 ? 'not_in_the_taxonomy' : name,
    occurredAt: new Date(Date.now() - (i % 1000) * 60_000).toISOString(),
    anonymousId: `install-${i % 5000}`,
    ...(userId ? { userId } : {}),
    sessionId: crypto.randomUUID(),
    platform: i % 2 ? 'ios' : 'android',
    appVersion: '2.3.1',
    buildNumber: 231,
    schemaVersion: 1,
    properties: properties(name),
  };
}
