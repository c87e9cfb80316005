import type { Env } from '../../platform/env';
import { LIMITS } from '../../platform/limits';
import { logEvent } from '../../platform/ops/log-line';
import type { PushCategory, PushTokenDoc } from '../documents';
import { type WebEndpointRules, webEndpointProblem, webEndpointRules } from '../push-tokens/web-endpoint';
import { encryptPush } from './aes128gcm';
import type { Notification } from './notification';
import { readVapid, type VapidConfig, vapidAuthorization } from './vapid';
import {
  boundedReason,
  classifyWebAnswer,
  encodeWebPayload,
  halveBody,
  retryDelayMs,
  webAnswerReason,
  webPushHeaders,
} from './web-payload';

// Sending to browsers' push services (RFC 8030), each push its own request: the payload encrypted with the
// `aes128gcm` content coding of RFC 8291 (worker/notifications/push/aes128gcm.ts), authorised with VAPID
// (worker/notifications/push/vapid.ts).

/** One notification to one web push subscription. */
export interface WebSend {
  token: Pick<PushTokenDoc, 'token' | 'endpoint' | 'keys'>;
  category: PushCategory;
  notification: Notification;
}

/** What the push service made of it, after the retries. */
export interface WebSendResult {
  status: 'ok' | 'error';
  /** The HTTP status of the last request; absent when the service was never reached. */
  serviceStatus?: number;
  attempts: number;
  /** 404 or 410: the subscription is gone and its token is to be marked dead. */
  gone: boolean;
  error?: { code: string | null; message: string };
  /** Each request to the push service in order, with what it answered: the delivery log keeps one row per request. */
  tries: WebTry[];
}

/** One request to the push service and its answer. */
export type WebTry = Pick<WebSendResult, 'status' | 'serviceStatus' | 'error'> & { attempt: number };

const tryOf = (result: WebSendResult, attempt: number): WebTry => ({
  attempt: attempt + 1,
  status: result.status,
  ...(result.serviceStatus !== undefined ? { serviceStatus: result.serviceStatus } : {}),
  ...(result.error ? { error: result.error } : {}),
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function encrypted(send: WebSend, notification: Notification): Promise<Uint8Array> {
  return encryptPush(send.token.keys!, encodeWebPayload(notification));
}

/**
 * Sends one push: 201 is accepted; 404/410 mean the subscription is gone; a 413 is tried once more with the
 * body preview halved; 429 and 5xx (and an unreachable service) are retried with backoff honouring
 * Retry-After, at most LIMITS.push.sendAttempts requests; a redirect is not followed and fails the push;
 * 400/403 and the rest are refusals. Answers are reported by status in our own words (webAnswerReason).
 */
export async function sendWebPush(config: VapidConfig, send: WebSend): Promise<WebSendResult> {
  const endpoint = send.token.endpoint!;
  const { ttl, urgency, topic } = webPushHeaders(send.category, send.notification);
  let notification = send.notification;
  let shortened = false;
  let body: Uint8Array;
  try {
    body = await encrypted(send, notification);
  } catch (err) {
    return {
      status: 'error',
      attempts: 0,
      gone: false,
      error: { code: 'encryption-failed', message: (err as Error).message },
      tries: [],
    };
  }
  const tries: WebTry[] = [];
  let last: WebSendResult = { status: 'error', attempts: 0, gone: false, tries };
  for (let attempt = 0; attempt < LIMITS.push.sendAttempts; attempt++) {
    // Signed apart from the request: a key WebCrypto cannot import is a configuration mistake to name, not an
    // unreachable push service to retry.
    let authorization: string;
    try {
      authorization = await vapidAuthorization(config, endpoint);
    } catch (err) {
      return {
        status: 'error',
        attempts: attempt,
        gone: false,
        tries,
        error: {
          code: 'vapid-key-unusable',
          message: `VAPID_PRIVATE_KEY cannot sign (it must be the P-256 private key of VAPID_PUBLIC_KEY, base64url): ${(err as Error).message}`,
        },
      };
    }
    let response: Response | null = null;
    try {
      response = await fetch(endpoint, {
        method: 'POST',
        // A push service answers itself; a redirect could only lead somewhere the endpoint check never saw.
        redirect: 'manual',
        headers: {
          authorization,
          'content-encoding': 'aes128gcm',
          'content-type': 'application/octet-stream',
          ttl: String(ttl),
          urgency,
          ...(topic ? { topic } : {}),
        },
        body,
      });
    } catch (err) {
      last = {
        status: 'error',
        attempts: attempt + 1,
        gone: false,
        tries,
        error: {
          code: null,
          message: `The push service at ${new URL(endpoint).origin} is unreachable: ${boundedReason((err as Error).message)}`,
        },
      };
      tries.push(tryOf(last, attempt));
    }
    if (response) {
      // The body is never read: whatever the server at the endpoint writes stays out of logs and answers.
      await response.body?.cancel();
      const answer = classifyWebAnswer(response.status);
      const said = `The push service at ${new URL(endpoint).origin} answered ${response.status}: ${webAnswerReason(response.status)}`;
      if (answer === 'redirected')
        logEvent('push.web.redirected', { origin: new URL(endpoint).origin, serviceStatus: response.status });
      last = {
        status: answer === 'accepted' ? 'ok' : 'error',
        serviceStatus: response.status,
        attempts: attempt + 1,
        gone: answer === 'gone',
        tries,
        ...(answer === 'accepted'
          ? {}
          : {
              error: {
                code: answer === 'gone' ? '410-Gone' : answer === 'redirected' ? 'redirect' : String(response.status),
                message: said,
              },
            }),
      };
      tries.push(tryOf(last, attempt));
      if (answer === 'accepted' || answer === 'gone' || answer === 'refused' || answer === 'redirected') return last;
      if (answer === 'too-large') {
        if (shortened) return last;
        shortened = true;
        notification = halveBody(notification);
        body = await encrypted(send, notification);
        continue;
      }
    }
    if (attempt + 1 >= LIMITS.push.sendAttempts) break;
    const wait = retryDelayMs(response?.headers.get('retry-after') ?? null, attempt);
    if (wait === null) {
      last.error = {
        code: last.error?.code ?? null,
        message: `${last.error?.message} (its Retry-After is beyond this run)`,
      };
      tries[tries.length - 1]!.error = last.error;
      break;
    }
    await sleep(wait);
  }
  return last;
}

/**
 * This deployment's web endpoint rules, or null (one log line) when WEB_PUSH_HOSTS is unusable: web pushes
 * then go nowhere rather than anywhere.
 */
export function webRulesForSending(env: Env): WebEndpointRules | null {
  try {
    return webEndpointRules(env);
  } catch (err) {
    logEvent('push.web.hosts-unusable', { problem: (err as Error).message });
    return null;
  }
}

/**
 * Sends many pushes, a few in flight at once. Without a usable VAPID key pair or subject every result is an
 * error naming the setting, and one line is logged. An endpoint off the push services is never requested,
 * whoever passed it here.
 */
export async function sendWebPushes(env: Env, sends: WebSend[]): Promise<WebSendResult[]> {
  if (!sends.length) return [];
  const config = readVapid(env);
  if ('problem' in config) {
    logEvent('push.web.vapid-unusable', { problem: config.problem, subscriptions: sends.length });
    return sends.map(() => ({
      status: 'error',
      attempts: 0,
      gone: false,
      error: { code: 'vapid-not-configured', message: config.problem },
      tries: [],
    }));
  }
  const rules = webRulesForSending(env);
  const results: WebSendResult[] = new Array(sends.length);
  let next = 0;
  const lane = async () => {
    while (next < sends.length) {
      const index = next++;
      const send = sends[index]!;
      const problem = rules ? webEndpointProblem(send.token.endpoint ?? '', rules) : 'WEB_PUSH_HOSTS is unusable';
      results[index] = problem
        ? {
            status: 'error',
            attempts: 0,
            gone: false,
            error: { code: 'endpoint-not-allowed', message: problem },
            tries: [],
          }
        : await sendWebPush(config, send);
    }
  };
  await Promise.all(Array.from({ length: Math.min(LIMITS.webPush.sendConcurrency, sends.length) }, lane));
  return results;
}
