// Runs the voice box: `npx tsx voice-node/src/main.ts` (npm run dev starts it; the Dockerfile runs it).
import { startVoiceBox } from './server.js';
import { readSettings } from './settings.js';
import { espeakEngine } from './synthesis/espeak.js';
import { openAiEngine } from './synthesis/openai.js';

const settings = readSettings();
const engine = settings.engine === 'openai' ? openAiEngine(settings.openai) : espeakEngine(settings);
const box = await startVoiceBox(settings, engine);
console.log(`[voice] ready on ${box.url} (engine ${engine.name}, at most ${settings.maxSessions} sessions)`);

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  void box.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
