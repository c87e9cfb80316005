import { describe, expect, it } from 'vitest';
import {
  type ActivityModel,
  busiestBin,
  CLOUDFLARE_PRICES,
  compressed,
  type MeasuredCosts,
  monthly,
  PRODUCTION_TOPOLOGY,
  predict,
  RIDER_ACTIVITY,
  relativeError,
  shardCountFor,
} from '../../../bench/scale/model';

const NOTHING: ActivityModel = {
  posts: 0,
  reactions: 0,
  comments: 0,
  messages: 0,
  typingFramesPerMessage: 0,
  viewingChanges: 0,
  readMarkers: 0,
  restReads: 0,
  sessions: 0,
  conversationSize: 2,
};

const COSTS: MeasuredCosts = {
  shardCpuMsPerFrame: 0.01,
  shardCpuMsPerRequest: 0.1,
  presenceCpuMsPerRequest: 1,
  dbOpsPerRestWrite: 3,
  dbOpsPerRestRead: 2,
  gatewayCpuMsPerOp: 2,
  workerCpuMsPerRequest: 2,
  fanoutBaseMs: 20,
};

const NO_USAGE = {
  workerRequests: 0,
  workerCpuMs: 0,
  objectRequests: 0,
  objectGbSeconds: 0,
  rowsWritten: 0,
  rowsRead: 0,
};

describe('the scale model', () => {
  it('sizes the shards by sockets, never below the minimum', () => {
    expect(shardCountFor(100_000, PRODUCTION_TOPOLOGY)).toBe(100);
    expect(shardCountFor(1_000_000, PRODUCTION_TOPOLOGY)).toBe(1000);
    expect(shardCountFor(200, PRODUCTION_TOPOLOGY)).toBe(8);
  });

  it('puts the fullest of randomly filled shards three standard deviations above the mean', () => {
    expect(busiestBin(1000, 1)).toBe(1000);
    expect(busiestBin(100_000, 100)).toBe(Math.ceil(1000 + 3 * Math.sqrt(1000 * 0.99)));
    expect(busiestBin(3, 100)).toBeLessThanOrEqual(3);
  });

  it('costs every shard one request per feed-wide event, however many shards there are', () => {
    // One post per rider-hour: 3,600 riders post once a second.
    const activity = { ...NOTHING, posts: 1 };
    const small = predict(3600, activity, COSTS, { ...PRODUCTION_TOPOLOGY, socketsPerShard: 100 });
    const large = predict(3600, activity, COSTS, { ...PRODUCTION_TOPOLOGY, socketsPerShard: 10 });
    expect(small.broadcastsPerSecond).toBeCloseTo(1);
    expect(small.shards.count).toBe(36);
    expect(large.shards.count).toBe(360);
    // A broadcast a second plus one ping alarm per interval, at every shard.
    expect(small.shards.busiestRequestsPerSecond).toBeCloseTo(1 + 1000 / 25_000);
    expect(large.shards.busiestRequestsPerSecond).toBeCloseTo(1 + 1000 / 25_000);
    // Each event reaches every socket.
    expect(small.messagesOutPerSecond).toBeCloseTo(3600);
  });

  it('grows the feed fan-out with the square of the riders: frames out per second', () => {
    const at = (riders: number) => predict(riders, { ...NOTHING, reactions: 1 }, COSTS).messagesOutPerSecond;
    expect(at(20_000) / at(10_000)).toBeCloseTo(4);
  });

  it('accounts a two-rider message as the code sends it', () => {
    // 3,600 riders writing one message an hour: one message a second.
    const p = predict(3600, { ...NOTHING, messages: 1 }, COSTS);
    // One frame, to the other participant's socket (the sender's own connection is excluded).
    expect(p.messagesOutPerSecond).toBeCloseTo(1);
    expect(p.messagesInPerSecond).toBeCloseTo(0);
    // One presence read per participant, shared by the delivery and the push check: 2 per message.
    expect(p.presence.requestsPerSecond * 3600).toBeCloseTo(2);
    // The REST write's database operations.
    expect(p.dbOpsPerSecond).toBeCloseTo(COSTS.dbOpsPerRestWrite);
    expect(p.restPerSecond).toBeCloseTo(1);
  });

  it('sends typing to the peers and counts its inbound frames', () => {
    const p = predict(3600, { ...NOTHING, messages: 1, typingFramesPerMessage: 3 }, COSTS);
    expect(p.messagesInPerSecond).toBeCloseTo(3);
    // The message's frame and three typing frames to the one peer.
    expect(p.messagesOutPerSecond).toBeCloseTo(4);
    // The participants and their blocks are read once per message (cached after), in one operation.
    expect(p.dbOpsPerSecond).toBeCloseTo(COSTS.dbOpsPerRestWrite + 1);
  });

  it('predicts the fan-out from the frames one shard writes, or all of them when shards run one at a time', () => {
    const parallel = predict(100_000, RIDER_ACTIVITY, COSTS);
    const serial = predict(100_000, RIDER_ACTIVITY, COSTS, { ...PRODUCTION_TOPOLOGY, serialShards: true });
    expect(parallel.fanoutLastMs).toBeCloseTo(20 + busiestBin(100_000, 100) * 0.01);
    expect(serial.fanoutLastMs).toBeCloseTo(20 + 100_000 * 0.01);
  });

  it('names the binding limit and the busiest share of it', () => {
    const p = predict(100_000, RIDER_ACTIVITY, { ...COSTS, shardCpuMsPerFrame: 0.05 });
    expect(p.shards.bindingLimit).toBe('cpu');
    expect(p.shards.busiestShare).toBeCloseTo(p.shards.busiestMsPerSecond / 1000);
    const quiet = predict(100_000, NOTHING, COSTS, { ...PRODUCTION_TOPOLOGY, socketsPerShard: 30_000 });
    expect(quiet.shards.bindingLimit).toBe('websockets');
  });

  it('bills only what exceeds the included amounts, plus the base', () => {
    expect(monthly(NO_USAGE).total).toBe(CLOUDFLARE_PRICES.baseMonthly);
    const bill = monthly({ ...NO_USAGE, objectRequests: 3e6, objectGbSeconds: 1.4e6, workerRequests: 12e6 });
    expect(bill.objectRequests).toBeCloseTo(0.3);
    expect(bill.objectDuration).toBeCloseTo(12.5);
    expect(bill.workers).toBeCloseTo(0.6);
    expect(bill.total).toBeCloseTo(5 + 0.3 + 12.5 + 0.6);
  });

  it('bills the gateways for the whole month: they hold database connections and never hibernate', () => {
    const p = predict(10, NOTHING, COSTS);
    const gateways = 2 * 30 * 24 * 3600 * 0.128;
    // Plus the shards' ping alarms, a few hundredths of that.
    expect(p.monthlyCost.usage.objectGbSeconds).toBeGreaterThanOrEqual(gateways);
    expect(p.monthlyCost.usage.objectGbSeconds).toBeLessThan(gateways * 1.001);
  });

  it('speeds the activity model up for a short run, leaving its shape', () => {
    const fast = compressed(RIDER_ACTIVITY, 10);
    expect(fast.messages).toBe(RIDER_ACTIVITY.messages * 10);
    expect(fast.typingFramesPerMessage).toBe(RIDER_ACTIVITY.typingFramesPerMessage);
    expect(fast.conversationSize).toBe(2);
  });

  it('reports the error of a prediction against a measurement', () => {
    expect(relativeError(110, 100)).toBeCloseTo(0.1);
    expect(relativeError(90, 100)).toBeCloseTo(-0.1);
    expect(relativeError(0, 0)).toBe(0);
  });
});
