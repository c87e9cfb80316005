/**
 * The capacity and cost model of the real-time layer (docs/scale.md): from an activity model, the
 * per-operation costs the harness measured (bench/scale/run.ts) and Cloudflare's published limits
 * and prices, what N connected riders need and cost. Pure functions: no I/O, no clock.
 * Unit tests: test/node/platform/scale-model.test.ts.
 *
 * The request accounting per event follows the code (docs/realtime.md, Topology):
 * - a feed-wide event (post, removal, reaction change): one `broadcast` RPC to every shard, one frame
 *   to every /feed socket;
 * - a comment: the post author's presence read, one `deliver` to their shard, one frame;
 * - a message: each participant's presence read (shared by the delivery and the push check), one `deliver` per
 *   shard involved, one frame to each other participant's socket;
 * - typing start/stop from a client: one inbound frame at its shard, each peer's presence read, one
 *   `deliver` per peer's shard; the participants come from the database at most once a minute per
 *   conversation and shard (LIMITS.realtime.peerCacheMs);
 * - `conversation:viewing`: one inbound frame at the shard, one presence `view`;
 * - a read marker: each other participant's presence read, one `deliver`, one frame;
 * - a session (connect, later close): the upgrade and two namespace CONNECT frames at the shard, two
 *   presence `attach` and one `detach`, two account reads, one close;
 * - one ping alarm per shard per ping interval (pongs are answered by the runtime, not counted).
 */

/** What connected riders do, per rider per hour (docs/scale.md, Activity model, for the sources). */
export interface ActivityModel {
  posts: number;
  reactions: number;
  comments: number;
  messages: number;
  /** Typing frames a client sends per message it writes (starts, refreshes, the stop). */
  typingFramesPerMessage: number;
  viewingChanges: number;
  readMarkers: number;
  /** REST reads (feed pages, conversation lists, message pages). */
  restReads: number;
  /** Connections opened (app brought to the foreground, network change). */
  sessions: number;
  /** Participants of a conversation, the writer included. */
  conversationSize: number;
}

/** Per-operation costs, measured by the harness on the local stack (bench/scale/run.ts). */
export interface MeasuredCosts {
  /** Shard CPU to write one event frame to one socket (broadcast CPU ÷ frames it wrote). */
  shardCpuMsPerFrame: number;
  /** Shard CPU per request other than the frames it writes (inbound frames, deliver, alarm). */
  shardCpuMsPerRequest: number;
  /** Presence object CPU per request (a storage read or write). */
  presenceCpuMsPerRequest: number;
  /** Database operations per REST write (auth, the write, the audience lookups). */
  dbOpsPerRestWrite: number;
  dbOpsPerRestRead: number;
  /** Gateway CPU per database operation (its wait on the database overlaps other operations). */
  gatewayCpuMsPerOp: number;
  /** Worker CPU per REST request (outside the objects). */
  workerCpuMsPerRequest: number;
  /** From the write's response to the first receiver: publish, presence, RPC hops. */
  fanoutBaseMs: number;
}

/** Cloudflare's published per-object limits (docs/scale.md cites the pages and their date). */
export interface PlatformLimits {
  requestsPerSecondPerObject: number;
  /** One object runs one thread: 1,000 ms of CPU per second is all of it. */
  cpuMsPerSecondPerObject: number;
  websocketsPerObject: number;
  storageBytesPerObject: number;
  /** Subrequests one Worker invocation may make (the broadcast calls every shard). */
  subrequestsPerInvocation: number;
}

export const CLOUDFLARE_LIMITS: PlatformLimits = {
  requestsPerSecondPerObject: 1000,
  cpuMsPerSecondPerObject: 1000,
  websocketsPerObject: 32_768,
  storageBytesPerObject: 10e9,
  subrequestsPerInvocation: 1000,
};

/** Workers Paid (Standard) and Durable Objects prices, USD (docs/scale.md cites the pages and their date). */
export interface Prices {
  baseMonthly: number;
  workerRequestsIncluded: number;
  workerPerMillionRequests: number;
  workerCpuMsIncluded: number;
  workerPerMillionCpuMs: number;
  objectRequestsIncluded: number;
  objectPerMillionRequests: number;
  /** Incoming WebSocket messages billed as one request per this many. */
  websocketMessagesPerRequest: number;
  objectGbSecondsIncluded: number;
  objectPerMillionGbSeconds: number;
  /** Memory an active object is billed for. */
  objectGb: number;
  rowsWrittenIncluded: number;
  perMillionRowsWritten: number;
  rowsReadIncluded: number;
  perMillionRowsRead: number;
}

export const CLOUDFLARE_PRICES: Prices = {
  baseMonthly: 5,
  workerRequestsIncluded: 10e6,
  workerPerMillionRequests: 0.3,
  workerCpuMsIncluded: 30e6,
  workerPerMillionCpuMs: 0.02,
  objectRequestsIncluded: 1e6,
  objectPerMillionRequests: 0.15,
  websocketMessagesPerRequest: 20,
  objectGbSecondsIncluded: 400_000,
  objectPerMillionGbSeconds: 12.5,
  objectGb: 0.128,
  rowsWrittenIncluded: 50e6,
  perMillionRowsWritten: 1,
  rowsReadIncluded: 25e9,
  perMillionRowsRead: 0.001,
};

/** How the deployment is laid out. */
export interface Topology {
  /** Sockets a shard should hold on average; the shard count follows (never below `minShards`). */
  socketsPerShard: number;
  minShards: number;
  dbGateways: number;
  dbPoolSize: number;
  pingIntervalMs: number;
  /** Devices (sockets) per connected rider. */
  socketsPerRider: number;
  /**
   * Whether shards write their frames one after another (true on one local workerd process, which
   * runs every object on the same thread) or in parallel (false: each object on its own machine thread).
   */
  serialShards: boolean;
}

export const PRODUCTION_TOPOLOGY: Topology = {
  socketsPerShard: 1000,
  minShards: 8,
  dbGateways: 2,
  dbPoolSize: 10,
  pingIntervalMs: 25_000,
  socketsPerRider: 1,
  serialShards: false,
};

export interface ObjectLoad {
  count: number;
  /** Requests per second at one average instance, and at the busiest one. */
  requestsPerSecond: number;
  busiestRequestsPerSecond: number;
  /** CPU ms per second at the busiest instance. */
  busiestMsPerSecond: number;
  /** The busiest instance's load as a share of its binding limit (1 = at the limit). */
  busiestShare: number;
  /** Which limit binds: requests, cpu, or websockets. */
  bindingLimit: 'requests' | 'cpu' | 'websockets';
}

export interface Prediction {
  riders: number;
  sockets: number;
  shards: ObjectLoad;
  presence: ObjectLoad;
  gateways: ObjectLoad;
  /** Frames clients send to shards, and shards write to clients, per second over the whole system. */
  messagesInPerSecond: number;
  messagesOutPerSecond: number;
  /** Feed-wide events per second: each one is a request at every shard. */
  broadcastsPerSecond: number;
  restPerSecond: number;
  dbOpsPerSecond: number;
  /** Sockets held by clients, and database connections held by the gateways. */
  connectionsHeld: { websockets: number; database: number };
  /** From write to the last receiver of a feed-wide event. */
  fanoutLastMs: number;
  monthlyCost: MonthlyCost;
}

export interface MonthlyCost {
  workers: number;
  objectRequests: number;
  objectDuration: number;
  storage: number;
  total: number;
  /** The billed quantities, for the table. */
  usage: {
    workerRequests: number;
    workerCpuMs: number;
    objectRequests: number;
    objectGbSeconds: number;
    rowsWritten: number;
    rowsRead: number;
  };
}

/**
 * The activity model: what one connected rider does in an hour with the app open. Assumptions, not
 * measurements (the service has no production traffic yet); docs/scale.md gives each one's source:
 * - posts, comments, reactions: participation inequality ("90-9-1", Nielsen Norman Group, 2006):
 *   about 1 rider in 10 contributes at all, 1 in 100 often. 1 post per 50 rider-hours, 1 comment per
 *   10, and reactions (the cheap act the 9% make) at 0.5 per rider-hour;
 * - messages: 6 per rider-hour in two-rider conversations (one short chat of a few messages each way);
 * - typing: a start, one refresh (clients refresh every 3 s, docs/realtime.md) and a stop per message;
 * - viewing: a chat screen opened and left per 2 messages (2 changes), read markers 1 per 2 received;
 * - REST reads: 6 per rider-hour (feed pages, conversation list, message pages);
 * - sessions: 2 connections opened per rider-hour (foregrounding, network changes on mobile).
 */
export const RIDER_ACTIVITY: ActivityModel = {
  posts: 0.02,
  reactions: 0.5,
  comments: 0.1,
  messages: 6,
  typingFramesPerMessage: 3,
  viewingChanges: 6,
  readMarkers: 3,
  restReads: 6,
  sessions: 2,
  conversationSize: 2,
};

/** The same model sped up `factor` times: the harness compresses an hour of activity into minutes. */
export function compressed(activity: ActivityModel, factor: number): ActivityModel {
  return {
    ...activity,
    posts: activity.posts * factor,
    reactions: activity.reactions * factor,
    comments: activity.comments * factor,
    messages: activity.messages * factor,
    viewingChanges: activity.viewingChanges * factor,
    readMarkers: activity.readMarkers * factor,
    restReads: activity.restReads * factor,
    sessions: activity.sessions * factor,
  };
}

const HOUR = 3600;
const MONTH_SECONDS = 30 * 24 * HOUR;

/** How many shards hold `sockets`, at `socketsPerShard` each on average. */
export function shardCountFor(sockets: number, topology: Topology): number {
  return Math.max(topology.minShards, Math.ceil(sockets / topology.socketsPerShard));
}

/**
 * The fullest of `bins` when `items` land in them uniformly at random: the mean plus three standard
 * deviations of a binomial count (a normal approximation; exceeded in about 1 shard in 700).
 */
export function busiestBin(items: number, bins: number): number {
  if (bins <= 1) return items;
  const mean = items / bins;
  return Math.min(items, Math.ceil(mean + 3 * Math.sqrt(mean * (1 - 1 / bins))));
}

/** Events per second the whole population produces, by kind. */
export function eventRates(riders: number, activity: ActivityModel) {
  const perSecond = (perHour: number) => (riders * perHour) / HOUR;
  return {
    posts: perSecond(activity.posts),
    reactions: perSecond(activity.reactions),
    comments: perSecond(activity.comments),
    messages: perSecond(activity.messages),
    typingFrames: perSecond(activity.messages * activity.typingFramesPerMessage),
    viewingChanges: perSecond(activity.viewingChanges),
    readMarkers: perSecond(activity.readMarkers),
    restReads: perSecond(activity.restReads),
    sessions: perSecond(activity.sessions),
  };
}

/** The model at `riders` connected riders. */
export function predict(
  riders: number,
  activity: ActivityModel,
  costs: MeasuredCosts,
  topology: Topology = PRODUCTION_TOPOLOGY,
  limits: PlatformLimits = CLOUDFLARE_LIMITS,
  prices: Prices = CLOUDFLARE_PRICES,
): Prediction {
  const sockets = riders * topology.socketsPerRider;
  const shardCount = shardCountFor(sockets, topology);
  const rate = eventRates(riders, activity);
  const others = activity.conversationSize - 1;
  const devices = topology.socketsPerRider;

  // Feed-wide events: every shard gets each one, every /feed socket a frame.
  const broadcasts = rate.posts + rate.reactions;
  // Named deliveries: (presence reads, deliver calls, frames) per second over the system.
  const typingPeerReads = rate.typingFrames * others;
  const named = {
    presenceReads:
      rate.comments + rate.messages * activity.conversationSize + typingPeerReads + rate.readMarkers * others,
    deliverCalls:
      rate.comments * devices +
      rate.messages * activity.conversationSize * devices +
      typingPeerReads * devices +
      rate.readMarkers * others * devices,
    frames:
      rate.comments * devices +
      rate.messages * (others * devices + (devices - 1)) +
      typingPeerReads * devices +
      rate.readMarkers * others * devices,
  };
  const inbound = rate.typingFrames + rate.viewingChanges + rate.sessions * 2;
  const alarms = (shardCount * 1000) / topology.pingIntervalMs;
  const shardRequests = broadcasts * shardCount + named.deliverCalls + inbound + rate.sessions * 2 + alarms;
  const framesOut = broadcasts * sockets + named.frames;

  // Shards: a broadcast costs every shard one request whatever its size; the rest follow its sockets.
  const perShardSockets = sockets / shardCount;
  const busiestSockets = busiestBin(sockets, shardCount);
  const skew = busiestSockets / perShardSockets;
  const fixedPerShard = broadcasts + alarms / shardCount;
  const variablePerShard = (shardRequests - broadcasts * shardCount - alarms) / shardCount;
  const shardRps = shardRequests / shardCount;
  const busiestShardRps = fixedPerShard + variablePerShard * skew;
  const busiestShardCpu =
    (framesOut / shardCount) * skew * costs.shardCpuMsPerFrame + busiestShardRps * costs.shardCpuMsPerRequest;
  const shards = objectLoad(shardCount, shardRps, busiestShardRps, busiestShardCpu, busiestSockets, limits);

  // Presence: one object per rider; the busiest is a rider in many conversations, taken as 5× the average.
  const presenceRequests = named.presenceReads + rate.viewingChanges + rate.sessions * 3;
  const presenceRps = presenceRequests / riders;
  const busiestPresenceRps = presenceRps * 5;
  const presence = objectLoad(
    riders,
    presenceRps,
    busiestPresenceRps,
    busiestPresenceRps * costs.presenceCpuMsPerRequest,
    0,
    limits,
  );

  // Database: REST writes and reads, account reads on connect, participants on a typing cache miss.
  const restWrites = rate.posts + rate.reactions + rate.comments + rate.messages + rate.readMarkers;
  // A shard asks for a conversation's participants at most once a minute per typist (peerCacheMs):
  // taken as once per message written (an upper bound when one writes several a minute); one operation each.
  const peerLookups = Math.min(rate.typingFrames, rate.messages);
  const dbOps =
    restWrites * costs.dbOpsPerRestWrite + rate.restReads * costs.dbOpsPerRestRead + rate.sessions * 2 + peerLookups;
  const gatewayRps = dbOps / topology.dbGateways;
  const gateways = objectLoad(
    topology.dbGateways,
    gatewayRps,
    gatewayRps,
    gatewayRps * costs.gatewayCpuMsPerOp,
    0,
    limits,
  );

  const framesPerShardSerial = topology.serialShards ? sockets : busiestSockets;
  const fanoutLastMs = costs.fanoutBaseMs + framesPerShardSerial * costs.shardCpuMsPerFrame;

  const restPerSecond = restWrites + rate.restReads;
  const objectRequestsPerSecond = shardRequests - inbound + inbound / prices.websocketMessagesPerRequest;
  const monthlyCost = monthly(
    {
      workerRequests: (restPerSecond + rate.sessions) * MONTH_SECONDS,
      workerCpuMs: (restPerSecond + rate.sessions) * costs.workerCpuMsPerRequest * MONTH_SECONDS,
      objectRequests: (objectRequestsPerSecond + presenceRequests + dbOps) * MONTH_SECONDS,
      // Shards and presence are billed while they work (hibernation between requests); gateways hold
      // database connections, so they never hibernate: billed the whole month.
      objectGbSeconds:
        ((shardRequests * costs.shardCpuMsPerRequest + framesOut * costs.shardCpuMsPerFrame) / 1000 +
          (presenceRequests * Math.max(costs.presenceCpuMsPerRequest, 1)) / 1000) *
          MONTH_SECONDS *
          prices.objectGb +
        topology.dbGateways * MONTH_SECONDS * prices.objectGb,
      // Presence writes: attach, detach, view; reads: the entry (shards and views), view's check.
      rowsWritten: (rate.sessions * 3 + rate.viewingChanges) * MONTH_SECONDS,
      rowsRead: (named.presenceReads + rate.viewingChanges * 2) * MONTH_SECONDS,
    },
    prices,
  );

  return {
    riders,
    sockets,
    shards,
    presence,
    gateways,
    messagesInPerSecond: inbound,
    messagesOutPerSecond: framesOut,
    broadcastsPerSecond: broadcasts,
    restPerSecond,
    dbOpsPerSecond: dbOps,
    connectionsHeld: { websockets: sockets, database: topology.dbGateways * (topology.dbPoolSize + 1) },
    fanoutLastMs,
    monthlyCost,
  };
}

function objectLoad(
  count: number,
  requestsPerSecond: number,
  busiestRequestsPerSecond: number,
  busiestMsPerSecond: number,
  busiestSockets: number,
  limits: PlatformLimits,
): ObjectLoad {
  const shares = {
    requests: busiestRequestsPerSecond / limits.requestsPerSecondPerObject,
    cpu: busiestMsPerSecond / limits.cpuMsPerSecondPerObject,
    websockets: busiestSockets / limits.websocketsPerObject,
  };
  const bindingLimit = (Object.keys(shares) as (keyof typeof shares)[]).reduce((a, b) =>
    shares[b] > shares[a] ? b : a,
  );
  return {
    count,
    requestsPerSecond,
    busiestRequestsPerSecond,
    busiestMsPerSecond,
    busiestShare: shares[bindingLimit],
    bindingLimit,
  };
}

/** The month's bill for the billed quantities, after the included amounts. */
export function monthly(usage: MonthlyCost['usage'], prices: Prices = CLOUDFLARE_PRICES): MonthlyCost {
  const over = (used: number, included: number, perMillion: number) =>
    (Math.max(0, used - included) / 1e6) * perMillion;
  const workers =
    over(usage.workerRequests, prices.workerRequestsIncluded, prices.workerPerMillionRequests) +
    over(usage.workerCpuMs, prices.workerCpuMsIncluded, prices.workerPerMillionCpuMs);
  const objectRequests = over(usage.objectRequests, prices.objectRequestsIncluded, prices.objectPerMillionRequests);
  const objectDuration = over(usage.objectGbSeconds, prices.objectGbSecondsIncluded, prices.objectPerMillionGbSeconds);
  const storage =
    over(usage.rowsWritten, prices.rowsWrittenIncluded, prices.perMillionRowsWritten) +
    over(usage.rowsRead, prices.rowsReadIncluded, prices.perMillionRowsRead);
  return {
    workers,
    objectRequests,
    objectDuration,
    storage,
    total: prices.baseMonthly + workers + objectRequests + objectDuration + storage,
    usage,
  };
}

/** Relative error of a prediction against a measurement: (predicted − measured) ÷ measured. */
export function relativeError(predicted: number, measured: number): number {
  if (measured === 0) return predicted === 0 ? 0 : Number.POSITIVE_INFINITY;
  return (predicted - measured) / measured;
}
