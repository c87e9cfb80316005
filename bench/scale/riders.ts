import { Manager, type Socket } from 'socket.io-client';

/**
 * Simulated riders' open apps: one Socket.IO connection each carrying /feed and /messages, as
 * socket.io-client opens them (docs/realtime.md). They reconnect by themselves after a transport close
 * (socket.io-client's own backoff) and connect a refused namespace again after a pause, as the docs
 * ask apps to. Every frame the server sends is counted and timed here.
 */
export interface Rider {
  index: number;
  id: string;
  token: string;
  manager: Manager;
  feed: Socket;
  messages: Socket;
  /** The conversation this rider shares with its partner, and the partner's index. */
  conversationId?: string;
  partner?: number;
}

export interface Arrival {
  rider: number;
  at: number;
}

export class RiderStats {
  framesOut = 0;
  framesIn = 0;
  connectErrors = 0;
  /** Transport closes the rider did not ask for. */
  dropped = 0;
  /** Feed events by key (post text, or post id and counts): every arrival. */
  readonly feedArrivals = new Map<string, Arrival[]>();
  /** message id → riders that received it (a rider twice is a duplicate). */
  readonly messageArrivals = new Map<string, Arrival[]>();
  readonly messageTexts = new Map<string, string>();

  arrive(map: Map<string, Arrival[]>, key: string, rider: number): void {
    const list = map.get(key);
    const arrival = { rider, at: performance.now() };
    if (list) list.push(arrival);
    else map.set(key, [arrival]);
  }
}

export function openRider(url: string, index: number, id: string, token: string, stats: RiderStats): Rider {
  const manager = new Manager(url, {
    transports: ['websocket'],
    reconnectionDelay: 500,
    reconnectionDelayMax: 5000,
    randomizationFactor: 0.5,
    timeout: 20_000,
  });
  const feed = manager.socket('/feed', { auth: { token } });
  const messages = manager.socket('/messages', { auth: { token } });
  const rider: Rider = { index, id, token, manager, feed, messages };
  for (const socket of [feed, messages]) {
    socket.on('connect_error', () => {
      stats.connectErrors++;
      // A refused namespace is not retried by socket.io-client: connect again after a pause.
      setTimeout(() => socket.active || socket.connect(), 1000 + Math.random() * 1000);
    });
  }
  manager.on('close', (reason) => {
    if (reason !== 'forced close') stats.dropped++;
  });
  feed.on('post:created', ({ post }: { post: { text: string } }) => {
    stats.framesOut++;
    stats.arrive(stats.feedArrivals, post.text, index);
  });
  feed.on('post:reactions', ({ postId, counts }: { postId: string; counts: { love: number; respect: number } }) => {
    stats.framesOut++;
    stats.arrive(stats.feedArrivals, reactionKey(postId, counts), index);
  });
  feed.on('post:removed', () => stats.framesOut++);
  feed.on('comment:created', () => stats.framesOut++);
  messages.on('message:created', ({ message }: { message: { _id: string; text: string } }) => {
    stats.framesOut++;
    stats.messageTexts.set(message._id, message.text);
    stats.arrive(stats.messageArrivals, message._id, index);
  });
  for (const name of ['typing:start', 'typing:stop', 'conversation:read']) messages.on(name, () => stats.framesOut++);
  return rider;
}

export const reactionKey = (postId: string, counts: { love: number; respect: number }) =>
  `${postId}:${counts.love}:${counts.respect}`;

/** Resolves once both namespaces joined (after retries), or false after `ms`. */
export function joinedWithin(rider: Rider, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const check = () => {
      if (rider.feed.connected && rider.messages.connected) {
        clearInterval(timer);
        clearTimeout(giveUp);
        resolve(true);
      }
    };
    const timer = setInterval(check, 50);
    const giveUp = setTimeout(() => {
      clearInterval(timer);
      resolve(false);
    }, ms);
    check();
  });
}

export const connectedCount = (riders: Rider[]) =>
  riders.reduce((sum, rider) => sum + (rider.feed.connected && rider.messages.connected ? 1 : 0), 0);
