import { Container } from '@cloudflare/containers';

/**
 * The voice box (voice-node/Dockerfile) as a Cloudflare Container: each Durable Object instance runs one
 * container. worker/companion/voice/service.ts picks the instance from the session id, so the WebSocket and every
 * speak request for that session reach the same one (docs/voice.md, Deployment).
 */
export class VoiceBox extends Container {
  // voice-node/Dockerfile listens on 8080.
  override defaultPort = 8080;
  // A voice session is a conversation; ten idle minutes without a request means nobody is talking.
  override sleepAfter = '10m';
}
