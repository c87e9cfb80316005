/**
 * What a socket shard reports for the operators' real-time figures; the Worker's subclass writes them to metrics
 * (worker/social/socket-rooms.ts, worker/platform/ops/metrics.ts), so the shard itself binds nothing.
 */
export type ShardFigure =
  /** The sessions open on the shard now (WebSockets and polling sessions, probes too). */
  | { kind: 'sessions'; shard: number; sessions: number }
  /** One event sent, and to how many sockets. */
  | { kind: 'delivery'; event: string; namespace: string; sockets: number }
  /** A client turned away; `status` is what it was answered (HTTP status, close code, 0 for connect_error). */
  | { kind: 'refusal'; reason: ShardRefusal; status: number; detail?: string };

export type ShardRefusal =
  | 'shard-full'
  | 'namespace-refused'
  | 'invalid-namespace'
  | 'payload-too-large'
  | 'namespace-rejoined'
  | 'connects-rate-limited'
  | 'poll-queue-full'
  | 'upgrade-refused';
