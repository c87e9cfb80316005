import { DurableObject } from 'cloudflare:workers';
import { answerClose } from '../../durable-objects/socket-close';

// A test-only Worker (test/node/platform/socket-close-workerd.test.ts runs it in workerd through Miniflare):
// one hibernating Durable Object per room name that records every close it is told about.

/** How the probe answers a close: by the rooms' rule, not at all, or by echoing the code as received. */
export type ReplyMode = 'rule' | 'none' | 'echo';

/** What `webSocketClose` received, and what echoing the code did. */
export interface ObservedClose {
  code: number;
  reason: string;
  wasClean: boolean;
  echoError?: string;
}

interface ProbeEnv {
  CLOSE_PROBE: DurableObjectNamespace<CloseProbe>;
}

export class CloseProbe extends DurableObject<ProbeEnv> {
  override async fetch(request: Request): Promise<Response> {
    if (request.headers.get('Upgrade') !== 'websocket') {
      return Response.json((await this.ctx.storage.get<ObservedClose[]>('closes')) ?? []);
    }
    const mode = new URL(request.url).searchParams.get('reply') ?? 'rule';
    const { 0: client, 1: server } = new WebSocketPair();
    // The mode rides as a tag so it survives hibernation.
    this.ctx.acceptWebSocket(server, [mode]);
    return new Response(null, { status: 101, webSocket: client });
  }

  override async webSocketClose(ws: WebSocket, code: number, reason: string, wasClean: boolean): Promise<void> {
    const observed: ObservedClose = { code, reason, wasClean };
    const [mode] = this.ctx.getTags(ws) as [ReplyMode];
    if (mode === 'rule') answerClose(ws, code, reason);
    if (mode === 'echo') {
      try {
        ws.close(code, reason);
      } catch (error) {
        observed.echoError = String(error);
      }
    }
    const closes = (await this.ctx.storage.get<ObservedClose[]>('closes')) ?? [];
    await this.ctx.storage.put('closes', [...closes, observed]);
  }
}

export default {
  /** `/<room>` upgrades into that room's probe (`?reply=<mode>`); a plain GET lists its closes. */
  fetch(request, env) {
    const room = new URL(request.url).pathname.slice(1);
    return env.CLOSE_PROBE.get(env.CLOSE_PROBE.idFromName(room)).fetch(request);
  },
} satisfies ExportedHandler<ProbeEnv>;
