import { Readable } from 'node:stream';
import type { VoiceSettings } from '../settings.js';
import { LAME_OUTPUT, type SpeechEngine, spawnGroup } from './engine.js';

/**
 * OpenAI speech (`POST {base}/audio/speech`, mp3), re-encoded by lame to the voice box's one format so
 * clients never see two. Its speech models are announced to shut down on 2027-01-06 (the design notes):
 * the engine stays behind the SpeechEngine interface and espeak-ng remains the default.
 */
export function openAiEngine(settings: VoiceSettings['openai']): SpeechEngine {
  return {
    name: 'openai',
    start(text) {
      const lame = spawnGroup('lame', ['--mp3input', ...LAME_OUTPUT, '-', '-']);
      const abort = new AbortController();
      const stop = () => {
        abort.abort();
        lame.stop();
      };
      fetch(`${settings.baseUrl}/audio/speech`, {
        method: 'POST',
        signal: abort.signal,
        headers: {
          'content-type': 'application/json',
          ...(settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {}),
        },
        body: JSON.stringify({ model: settings.model, voice: settings.voice, input: text, response_format: 'mp3' }),
      })
        .then((res) => {
          if (!res.ok || !res.body) throw new Error(`OpenAI speech answered ${res.status}`);
          const body = Readable.fromWeb(res.body as import('node:stream/web').ReadableStream);
          body.on('error', () => lame.child.stdin!.end());
          body.pipe(lame.child.stdin!);
        })
        .catch((err: Error) => {
          // A failed request speaks nothing for this sentence; the turn still ends, with no chunks.
          if (!abort.signal.aborted) console.error(`[voice] OpenAI speech failed: ${err.message}`);
          lame.child.stdin!.end();
        });
      return { audio: lame.child.stdout!, stop, pid: lame.child.pid };
    },
  };
}
