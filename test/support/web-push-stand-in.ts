import type { Db } from 'mongodb';
import { toBase64Url } from '../../worker/notifications/push/base64url';
import type { Store } from '../../worker/platform/db/store';
import { registerAdmin, type TestAccount } from './accounts';
import { type PushTestbed, pushTestbed } from './expo-push-stand-in';
import type { ReceivedPush, StandInSubscription, WebPushScript } from './stand-ins/web-push';
import type { Api, TestEnv } from './worker-api';
import { uniqueDbName } from './worker-api';

export type { ReceivedPush, StandInSubscription, WebPushScript } from './stand-ins/web-push';

export interface VapidPair {
  publicKey: string;
  privateKey: string;
}

/** A fresh VAPID key pair in the form setup writes: the uncompressed point and the private scalar, base64url. */
export async function vapidPair(): Promise<VapidPair> {
  const pair = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, [
    'sign',
    'verify',
  ])) as CryptoKeyPair;
  const jwk = (await crypto.subtle.exportKey('jwk', pair.privateKey)) as JsonWebKey;
  const raw = new Uint8Array((await crypto.subtle.exportKey('raw', pair.publicKey)) as ArrayBuffer);
  return { publicKey: toBase64Url(raw), privateKey: jwk.d! };
}

export interface WebPushTestbed {
  /** The Worker under test with this testbed's VAPID pair, its own database and Expo project. */
  api: Api;
  vapid: VapidPair;
  /** The Expo project beside it, for the app tokens of the same riders. */
  expo: PushTestbed;
  /** A new browser subscription at this testbed's push service. */
  subscribe(): Promise<StandInSubscription>;
  /** Sets what the push service answers (the configured VAPID key is filled in) and forgets what it received. */
  script(script?: Partial<WebPushScript>): Promise<void>;
  /** Every push the service received since the last script, in order. */
  received(): Promise<ReceivedPush[]>;
  withStore<T>(fn: (store: Store, db: Db) => Promise<T>): Promise<T>;
}

/**
 * A push service of its own (test/support/stand-ins/web-push.ts: it checks the VAPID JWT with the configured
 * public key and decrypts each payload with http_ece) and a fresh VAPID pair configured into the Worker.
 * @example
 * const web = await webPushTestbed('web-push');
 * const subscription = await web.subscribe();
 */
export async function webPushTestbed(label: string, overrides: Partial<TestEnv> = {}): Promise<WebPushTestbed> {
  const vapid = await vapidPair();
  const push = pushTestbed(label, {
    VAPID_PUBLIC_KEY: vapid.publicKey,
    VAPID_PRIVATE_KEY: vapid.privateKey,
    VAPID_SUBJECT: 'mailto:push@example.com',
    ...overrides,
  });
  const serviceUrl = `${push.api.env.STAND_INS_URL}/web-push/${uniqueDbName(label)}`;
  return {
    api: push.api,
    vapid,
    expo: push,
    withStore: push.withStore,
    async subscribe() {
      const res = await fetch(`${serviceUrl}/subscribe`, { method: 'POST' });
      if (res.status !== 201) throw new Error(`web push stand-in refused to subscribe: ${res.status}`);
      return res.json<StandInSubscription>();
    },
    async script(script = {}) {
      const res = await fetch(serviceUrl, {
        method: 'PUT',
        body: JSON.stringify({ vapidPublicKey: vapid.publicKey, ...script }),
      });
      if (res.status !== 204) throw new Error(`web push stand-in refused the script: ${res.status}`);
    },
    async received() {
      return (await fetch(`${serviceUrl}/received`)).json<ReceivedPush[]>();
    },
  };
}

/** The stand-in's id of a subscription (the last path segment of its endpoint). */
export const subscriptionId = (subscription: StandInSubscription) => subscription.endpoint.split('/').pop()!;

/** Registers a new browser subscription of the rider at the testbed's push service through POST /api/push-tokens, as the website does. */
export async function registerWebSubscription(bed: WebPushTestbed, account: TestAccount): Promise<StandInSubscription> {
  const subscription = await bed.subscribe();
  const res = await bed.api.fetch('/api/push-tokens', {
    method: 'POST',
    headers: { 'x-auth-token': account.token },
    json: { platform: 'web', transport: 'webpush', subscription: { ...subscription, expirationTime: null } },
  });
  if (res.status !== 201) throw new Error(`web push registration refused: ${res.status} ${await res.text()}`);
  return subscription;
}

/** POST /api/admin/notifications/test to the rider, as a new admin of that testbed. */
export async function adminTestPush(
  bed: WebPushTestbed,
  rider: TestAccount,
  category: 'messages' | 'reminders',
  body: string,
): Promise<Response> {
  const admin = await registerAdmin(bed.api);
  return bed.api.fetch('/api/admin/notifications/test', {
    method: 'POST',
    headers: { 'x-auth-token': admin.token },
    json: { userId: rider._id, category, body },
  });
}
