import { describe, expect, it } from 'vitest';
import { voiceSessionOf } from '../../../worker/companion/chat/speak';
import { voiceInstanceName } from '../../../worker/companion/voice/service';
import { maySpeakInto, mintVoiceSessionId } from '../../../worker/companion/voice/session-owner';

const SECRET = 'test-secret';
const OWNER = '65f0a1b2c3d4e5f601234567';
const OTHER = '65f0a1b2c3d4e5f601234568';

describe('voice session ids', () => {
  it('binds an id minted with an owner to that owner only', async () => {
    const id = await mintVoiceSessionId(SECRET, OWNER);
    expect(await maySpeakInto(SECRET, id, OWNER)).toBe(true);
    expect(await maySpeakInto(SECRET, id.toUpperCase(), OWNER)).toBe(true);
    expect(await maySpeakInto(SECRET, id, OTHER)).toBe(false);
    // Signed under another secret (a rotated JWT_SECRET), it binds nobody it can prove.
    expect(await maySpeakInto('another-secret', id, OWNER)).toBe(false);
  });

  it('lets any caller speak into an id minted without an owner', async () => {
    const id = await mintVoiceSessionId(SECRET, null);
    expect(await maySpeakInto(SECRET, id, OWNER)).toBe(true);
    expect(await maySpeakInto(SECRET, id, OTHER)).toBe(true);
  });

  it('refuses every bound id whose tag was altered, whichever digit', async () => {
    const id = await mintVoiceSessionId(SECRET, OWNER);
    const tagDigits = [...id.matchAll(/[0-9a-f]/g)].map((m) => m.index!).slice(16);
    for (const at of tagDigits) {
      const digit = id[at]!;
      const altered = `${id.slice(0, at)}${digit === '0' ? '1' : '0'}${id.slice(at + 1)}`;
      // The variant digit's top bits are fixed: the tag carries 62 bits of its own.
      if (altered === id || !voiceSessionOf(altered)) continue;
      expect(await maySpeakInto(SECRET, altered, OWNER), altered).toBe(false);
    }
  });

  it('mints UUIDs the chat routes accept, spread over every container instance', async () => {
    const ids = await Promise.all(Array.from({ length: 200 }, () => mintVoiceSessionId(SECRET, OWNER)));
    for (const id of ids) expect(voiceSessionOf(id)).toBe(id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids.map((id) => voiceInstanceName(id, 4)))).toEqual(
      new Set(['voice-0', 'voice-1', 'voice-2', 'voice-3']),
    );
  });

  it('refuses what is not a UUID', async () => {
    expect(await maySpeakInto(SECRET, 'not-a-uuid', OWNER)).toBe(false);
  });
});
