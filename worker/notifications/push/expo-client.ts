import { z } from 'zod';
import { requireSetting } from '../../platform/config';
import type { Env } from '../../platform/env';
import { LIMITS } from '../../platform/limits';

// Expo's push API spoken directly: expo-server-sdk does not run in workerd as published (its undici needs
// node:sqlite and compiles WASM, which workerd forbids; /work/shared/toolchain-checks.md §3), and its URL
// is fixed at module load from process.env, so it could not point each test at its own stand-in.

const SEND_PATH = '/--/api/v2/push/send';
const RECEIPTS_PATH = '/--/api/v2/push/getReceipts';

/** One message of Expo's message request format. */
export interface ExpoMessage {
  to: string;
  title: string;
  body: string;
  data: Record<string, string | number | boolean>;
  sound: 'default';
  priority: 'default' | 'normal' | 'high';
  channelId?: string;
  badge?: number;
}

const ErrorDetails = z.object({ error: z.string().optional() }).passthrough().optional();
const Ticket = z.discriminatedUnion('status', [
  z.object({ status: z.literal('ok'), id: z.string() }),
  z.object({ status: z.literal('error'), message: z.string(), details: ErrorDetails }),
]);
const Receipt = z.discriminatedUnion('status', [
  z.object({ status: z.literal('ok') }),
  z.object({ status: z.literal('error'), message: z.string(), details: ErrorDetails }),
]);
const SendAnswer = z.object({ data: z.array(Ticket) });
const ReceiptsAnswer = z.object({ data: z.record(z.string(), Receipt) });

export type ExpoTicket = z.infer<typeof Ticket>;
export type ExpoReceipt = z.infer<typeof Receipt>;

/** The push service refused or failed a whole request (after the retries, for 429 and 5xx). */
export class PushServiceError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
    this.name = 'PushServiceError';
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Retry-After in seconds (Expo sends seconds), else exponential backoff with jitter; never beyond the cap. */
function backoffMs(response: Response | null, attempt: number): number {
  const retryAfter = Number(response?.headers.get('retry-after'));
  const base = LIMITS.push.retryBaseMs * 2 ** attempt;
  const wait = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : base + Math.random() * base;
  return Math.min(wait, LIMITS.push.retryAfterMaxMs);
}

const retryable = (status: number) => status === 429 || status >= 500;

async function postToExpo(env: Env, path: string, payload: unknown): Promise<unknown> {
  const url = `${requireSetting(env, 'EXPO_PUSH_URL').replace(/\/+$/, '')}${path}`;
  const accessToken = env.EXPO_ACCESS_TOKEN?.trim();
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json',
    ...(accessToken ? { authorization: `Bearer ${accessToken}` } : {}),
  };
  let lastProblem = '';
  let lastStatus: number | null = null;
  for (let attempt = 0; attempt < LIMITS.push.sendAttempts; attempt++) {
    let response: Response | null = null;
    try {
      response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(payload) });
    } catch (err) {
      lastProblem = `unreachable: ${(err as Error).message}`;
    }
    if (response?.ok) return response.json();
    if (response) {
      lastStatus = response.status;
      lastProblem = `answered ${response.status}: ${(await response.text()).slice(0, 300)}`;
      if (!retryable(response.status)) break;
    }
    if (attempt + 1 < LIMITS.push.sendAttempts) await sleep(backoffMs(response, attempt));
  }
  throw new PushServiceError(`The push service at ${url} ${lastProblem}`, lastStatus);
}

/** Sends one chunk (at most LIMITS.push.sendChunk messages); the tickets come back in message order. */
export async function sendChunk(env: Env, messages: ExpoMessage[]): Promise<ExpoTicket[]> {
  const answer = SendAnswer.safeParse(await postToExpo(env, SEND_PATH, messages));
  if (!answer.success || answer.data.data.length !== messages.length) {
    throw new PushServiceError('The push service answered the send in an unexpected shape.', null);
  }
  return answer.data.data;
}

/** The receipts of up to LIMITS.push.receiptsBatch tickets; a ticket without a receipt is missing from the map. */
export async function getReceipts(env: Env, ticketIds: string[]): Promise<Record<string, ExpoReceipt>> {
  const answer = ReceiptsAnswer.safeParse(await postToExpo(env, RECEIPTS_PATH, { ids: ticketIds }));
  if (!answer.success)
    throw new PushServiceError('The push service answered getReceipts in an unexpected shape.', null);
  return answer.data.data;
}
