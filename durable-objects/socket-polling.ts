import type { SocketAttachment } from './socket-attachment';
import { CLOSE_FRAME, NOOP_FRAME } from './socket-io-frames';
import type { Link } from './socket-link';

/** Engine.IO v4 separates the packets of one polling payload with a record separator. */
export const PAYLOAD_SEPARATOR = '\x1e';
/** While an upgrade is under way a new poll is ended this soon with a noop, as Engine.IO's server checks every 100 ms. */
export const UPGRADE_NOOP_MS = 100;

/** What a long-poll GET gets: a payload to answer with, or a refusal when another poll is already held. */
export type PollAnswer = { body: string } | { overlap: true };

/** Why a session closes once its queue passes its bound. */
export const QUEUE_FULL = 'more packets queued than the client polls';

export interface PollingOptions {
  /** The most packets and bytes (counted as the frames' length) queued for the next poll. */
  queuePackets: number;
  queueBytes: number;
  /** The session ended, whatever ended it. */
  onClosed: () => void;
  /** The session ended because its queue passed its bound; called after onClosed. */
  onOverflowed: () => void;
}

/**
 * One Engine.IO long-polling session (docs/realtime.md, Long-polling). It lives in the shard's memory only:
 * a client polls again as soon as a poll is answered, so its held request keeps the shard awake, and a
 * restart ends the session (the client's next poll gets 400 and socket.io-client reconnects).
 */
export class PollingSession implements Link {
  private state: SocketAttachment;
  private queue: string[] = [];
  private queuedBytes = 0;
  private held: ((body: string) => void) | null = null;
  private pongAt = 0;
  private closed = false;
  private reason = '';
  /** A WebSocket probe answered: polls end at once so the client can pause polling and send `5`. */
  private upgrading = false;
  /** A WebSocket named this session to take it over: one may, the session is offered one upgrade. */
  private upgradeClaimed = false;

  constructor(
    attachment: SocketAttachment,
    private readonly options: PollingOptions,
  ) {
    this.state = structuredClone(attachment);
  }

  attachment(): SocketAttachment {
    return structuredClone(this.state);
  }

  store(attachment: SocketAttachment): boolean {
    if (this.closed) return false;
    this.state = structuredClone(attachment);
    return true;
  }

  /** Queues a packet for the next poll; past the queue's bound the session is closed, as one whose client is gone. */
  send(frame: string): void {
    if (this.closed) return;
    this.queue.push(frame);
    this.queuedBytes += frame.length + PAYLOAD_SEPARATOR.length;
    const { queuePackets, queueBytes, onOverflowed } = this.options;
    if (this.held) this.answer(this.takeQueue());
    else if (this.queue.length > queuePackets || this.queuedBytes > queueBytes) {
      this.close(1008, QUEUE_FULL);
      onOverflowed();
    }
  }

  /** Ends the session; a held poll hears the close packet, and later requests get 400. */
  close(_code?: number, reason = ''): void {
    if (this.closed) return;
    this.closed = true;
    this.reason = reason;
    this.emptyQueue();
    if (this.held) this.answer(CLOSE_FRAME);
    this.options.onClosed();
  }

  /** Why the shard closed the session ('' when nothing was said, or it is open). */
  get closeReason(): string {
    return this.reason;
  }

  /** True for the first WebSocket naming this session only: the others are refused. */
  claimUpgrade(): boolean {
    if (this.closed || this.upgradeClaimed) return false;
    this.upgradeClaimed = true;
    return true;
  }

  ponged(): void {
    this.pongAt = Date.now();
  }

  lastPongAt(): number {
    return this.pongAt;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** A long-poll GET: answered at once with what is queued, else held until a packet is sent. */
  poll(): Promise<PollAnswer> {
    if (this.held) return Promise.resolve({ overlap: true });
    if (this.closed) return Promise.resolve({ body: CLOSE_FRAME });
    if (this.queue.length) return Promise.resolve({ body: this.takeQueue() });
    return new Promise((resolve) => {
      const held = (body: string) => resolve({ body });
      this.held = held;
      if (this.upgrading) setTimeout(() => this.held === held && this.answer(NOOP_FRAME), UPGRADE_NOOP_MS);
    });
  }

  /** The client probed a WebSocket: end the held poll with a noop so it can pause polling. */
  probed(): void {
    this.upgrading = true;
    if (this.held) this.answer(NOOP_FRAME);
  }

  /**
   * The client sent `5` on its WebSocket, which now carries the session: answers what was not polled yet,
   * to send there in order, and ends the session here without a close packet.
   */
  handOver(): string[] {
    const queued = this.emptyQueue();
    this.closed = true;
    if (this.held) this.answer(NOOP_FRAME);
    this.options.onClosed();
    return queued;
  }

  /** What was queued, as one payload; the queue is then empty. */
  private takeQueue(): string {
    return this.emptyQueue().join(PAYLOAD_SEPARATOR);
  }

  private emptyQueue(): string[] {
    const queued = this.queue;
    this.queue = [];
    this.queuedBytes = 0;
    return queued;
  }

  private answer(body: string): void {
    const resolve = this.held;
    this.held = null;
    resolve?.(body);
  }
}
