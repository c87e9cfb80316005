import { readdirSync, readFileSync } from 'node:fs';
import WebSocket from 'ws';
import type { ServerMessage, ServerMessageType } from '../src/messages.js';

type Of<T extends ServerMessageType> = Extract<ServerMessage, { type: T }>;
export type Received = ServerMessage & { at: number };

/** A WebSocket client that records every message with its arrival time, as an app would receive them. */
export class VoiceClient {
  readonly received: Received[] = [];
  readonly ws: WebSocket;
  readonly closed: Promise<{ code: number; reason: string }>;
  private waiters: (() => void)[] = [];

  constructor(url: string, options: WebSocket.ClientOptions = {}) {
    this.ws = new WebSocket(url, options);
    this.ws.on('message', (data) => {
      this.received.push({ ...(JSON.parse(data.toString()) as ServerMessage), at: performance.now() });
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.ws.on('error', () => undefined);
    this.closed = new Promise((resolve) => {
      this.ws.on('close', (code, reason) => {
        resolve({ code, reason: reason.toString() });
        for (const wake of this.waiters.splice(0)) wake();
      });
    });
  }

  /** The `count`-th message of this type (1-based), waiting for it up to `ms`. */
  async next<T extends ServerMessageType>(type: T, count = 1, ms = 10_000): Promise<Of<T> & { at: number }> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = this.received.filter((m) => m.type === type);
      if (found.length >= count) return found[count - 1] as Of<T> & { at: number };
      if (Date.now() > deadline || this.ws.readyState === WebSocket.CLOSED) {
        throw new Error(`no ${type} #${count} within ${ms} ms (got ${this.received.map((m) => m.type).join(', ')})`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 50);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async ready(): Promise<string> {
    return (await this.next('_ready')).sessionId;
  }

  of<T extends ServerMessageType>(type: T): (Of<T> & { at: number })[] {
    return this.received.filter((m) => m.type === type) as (Of<T> & { at: number })[];
  }

  send(message: unknown): void {
    this.ws.send(JSON.stringify(message));
  }

  close(): void {
    this.ws.close();
  }
}

export const speak = (baseUrl: string, sessionId: string, text: string, contentType = 'text/plain') =>
  fetch(`${baseUrl}/speak/${sessionId}`, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body: contentType.startsWith('application/json') ? JSON.stringify({ text }) : text,
  });

/** Live (non-zombie) processes whose process group is `pgid`, read from /proc. */
export function processesInGroup(pgid: number): { pid: number; command: string }[] {
  const found: { pid: number; command: string }[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    // Fields after the parenthesised command: state, ppid, pgrp, ...
    const close = stat.lastIndexOf(')');
    const [state, , pgrp] = stat.slice(close + 2).split(' ');
    if (Number(pgrp) === pgid && state !== 'Z') {
      found.push({ pid: Number(entry), command: stat.slice(stat.indexOf('(') + 1, close) });
    }
  }
  return found;
}

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
