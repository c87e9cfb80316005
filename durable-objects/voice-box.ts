import { Container } from '@cloudflare/containers';

/**
 * The voice box (voice-node/Dockerfile) as a Cloudflare Container: each Durable Object instance runs one
 * container. worker/companion/voice/service.ts picks the instance from the session id, so the WebSocket and every
 * speak request for that session reach the same one (docs/voice.md, Deployment).
 */
/** What the box reads of the Worker's settings (worker/platform/env.ts, which names this class: no import back). */
interface VoiceBoxEnv {
  VOICE_ENGINE?: string;
}

export class VoiceBox extends Container<VoiceBoxEnv> {
  // voice-node/Dockerfile listens on 8080.
  override defaultPort = 8080;
  // A voice session is a conversation; ten idle minutes without a request means nobody is talking.
  override sleepAfter = '10m';

  constructor(ctx: Container<VoiceBoxEnv>['ctx'], env: VoiceBoxEnv) {
    super(ctx, env);
    // The Worker prices speech by VOICE_ENGINE (worker/companion/voice/settings.ts): the box speaks with the same engine.
    if (env.VOICE_ENGINE?.trim()) this.envVars = { VOICE_ENGINE: env.VOICE_ENGINE.trim() };
  }
}
