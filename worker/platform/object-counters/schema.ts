import { z } from '@hono/zod-openapi';
import { IdString } from '../http/ids';
import { LIMITS } from '../limits';

export const CountersQuery = z.object({
  riders: z
    .string()
    .optional()
    .describe(`Comma-separated rider ids whose presence objects to read too (at most ${LIMITS.objectCounters.riders})`)
    .transform((value, ctx) => {
      const ids = value ? value.split(',').filter(Boolean) : [];
      if (ids.length > LIMITS.objectCounters.riders)
        ctx.addIssue({ code: 'custom', message: `at most ${LIMITS.objectCounters.riders} rider ids` });
      for (const id of ids)
        if (!IdString.safeParse(id).success) ctx.addIssue({ code: 'custom', message: `${id} is not a rider id` });
      return ids;
    }),
});

const Counters = z.object({
  requests: z.number().int().describe('requests the instance handled since it started'),
  wallMs: z.number().describe('their summed time from start to settle, waits included'),
  cpuMs: z.number().describe('their summed JavaScript time before the first await (docs/scale.md)'),
  peakPerSecond: z.number().int().describe('most requests started within one second'),
  startedAt: z.number().describe('when the instance started counting (ms since the epoch); a restart resets it'),
});

const Named = Counters.extend({ name: z.string().describe('the object name, e.g. shard-0 or db-gateway-1') });

export const ObjectCountersReport = z
  .object({
    readAt: z.number().describe('when the counters were read (ms since the epoch)'),
    socketShards: z.array(Named),
    dbGateways: z.array(Named),
    riderPresence: z.array(Counters.extend({ riderId: IdString })),
  })
  .openapi('ObjectCounters');

export type ObjectCountersReport = z.infer<typeof ObjectCountersReport>;

export const ShardParam = z.object({
  index: z.coerce
    .number()
    .int()
    .min(0)
    .openapi({ param: { name: 'index', in: 'path' }, description: 'the shard index: shard-<index>' }),
});

export const ShardReset = z.object({ closed: z.number().int().describe('sockets the shard closed') });
