// Who may speak into a voice session (docs/voice.md, Who may speak). The Worker mints every session id; one
// opened with a token carries its owner signed into the id itself, so the chat routes check it without asking
// the voice box or keeping a record, the same way the id alone names the container instance (service.ts).

const encoder = new TextEncoder();
// The UUID version nibble that marks a bound session; unbound ones are random version 4 UUIDs.
const BOUND_VERSION = 0x80;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function hex(bytes: Uint8Array): string {
  return [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

function uuidOf(bytes: Uint8Array): string {
  const h = hex(bytes);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * The 8 tag bytes of a bound id: HMAC-SHA256 over the id's random half and the owner, variant bits set.
 * The NUL separators keep this input from ever equalling a token's signing input under the same secret.
 */
async function ownerTag(secret: string, nonce: Uint8Array, ownerId: string): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  const mac = new Uint8Array(
    await crypto.subtle.sign('HMAC', key, encoder.encode(`voice-session\u0000${hex(nonce)}\u0000${ownerId}`)),
  ).slice(0, 8);
  mac[0] = (mac[0]! & 0x3f) | 0x80;
  return mac;
}

/**
 * A new session id: random (version 4) when nobody signed in, else a version 8 UUID whose first 8 bytes
 * are random and whose last 8 are the owner's tag. The first 32 bits stay random for instance routing.
 */
export async function mintVoiceSessionId(secret: string, ownerId: string | null): Promise<string> {
  if (ownerId === null) return crypto.randomUUID();
  const nonce = crypto.getRandomValues(new Uint8Array(8));
  nonce[6] = (nonce[6]! & 0x0f) | BOUND_VERSION;
  const id = new Uint8Array(16);
  id.set(nonce);
  id.set(await ownerTag(secret, nonce, ownerId), 8);
  return uuidOf(id);
}

/**
 * Whether `callerId` may have replies spoken into `sessionId`: any caller for an unbound session (the id is
 * the capability), only its owner for a bound one.
 */
export async function maySpeakInto(secret: string, sessionId: string, callerId: string): Promise<boolean> {
  if (!UUID.test(sessionId)) return false;
  const id = Uint8Array.from(sessionId.replace(/-/g, '').match(/../g)!, (pair) => Number.parseInt(pair, 16));
  if ((id[6]! & 0xf0) !== BOUND_VERSION) return true;
  const expected = await ownerTag(secret, id.slice(0, 8), callerId);
  let difference = 0;
  for (let i = 0; i < 8; i++) difference |= expected[i]! ^ id[8 + i]!;
  return difference === 0;
}
