import { startVoiceBox } from '../src/server.js';
import { readSettings } from '../src/settings.js';
import { espeakEngine } from '../src/synthesis/espeak.js';

/** A voice box on a free loopback port with the real espeak-ng | lame engine and the default settings, overridable. */
export function startTestBox(overrides: Partial<ReturnType<typeof readSettings>> = {}) {
  const settings = { ...readSettings({}), port: 0, ...overrides };
  return startVoiceBox(settings, espeakEngine(settings));
}

/** A reply long enough to still be synthesising and playing when a test interrupts it. */
export const LONG_REPLY = `Okay so here is the thing about dropping in, ${'you lean forward, commit your weight over the front truck, and keep your shoulders over the board the whole way down, '.repeat(6)}and that is it.`;
