import type { VoiceSettings } from '../settings.js';
import { LAME_OUTPUT, type SpeechEngine, spawnGroup } from './engine.js';

// The text goes in on stdin, never in the command line: no quoting to get wrong, no argument length limit.
const PIPELINE = `espeak-ng --stdout -v "$1" -s "$2" | lame ${LAME_OUTPUT.join(' ')} - -`;

/** The offline engine: `espeak-ng | lame` in one process group per sentence (the design notes, Offline voice). */
export function espeakEngine(settings: Pick<VoiceSettings, 'espeakVoice' | 'espeakSpeed'>): SpeechEngine {
  return {
    name: 'espeak',
    start(text) {
      const { child, stop } = spawnGroup('sh', [
        '-c',
        PIPELINE,
        'sh',
        settings.espeakVoice,
        String(settings.espeakSpeed),
      ]);
      child.stdin!.end(text);
      return { audio: child.stdout!, stop, pid: child.pid };
    },
  };
}
