import type { ObjectId } from 'mongodb';
import { z } from 'zod';
import type { Store } from '../../../platform/db/store';
import type { Env } from '../../../platform/env';
import { LIMITS } from '../../../platform/limits';
import { EVENT_SPORTS, SPORTS } from '../../../platform/sports';
import type { TurnLearnings } from '../profile';
import type { ToolSpec } from '../providers/types';
import { blogPostsFor } from './blog';
import { EVENT_WINDOWS, eventWindow, findUpcomingEvents } from './events';
import { addTrickFor, spotsFor, trickipediaFor, trickListsOf } from './riding';

/** What a tool may touch: the calling rider's own data, and what this turn learns about them. */
export interface ToolContext {
  store: Store;
  /** Settings: the look-ups search by meaning when a vector store is bound (worker/platform/retrieval/). */
  env: Env;
  userId: ObjectId;
  now: Date;
  /** The sport a new trick list is filed under: the rider's first known sport. */
  sport: (typeof SPORTS)[number];
  learnings: TurnLearnings;
}

/** A tool's answer, or why it has none; either way the model reads it as the tool's result. */
export type ToolOutcome = { ok: true; result: unknown } | { ok: false; error: string; details?: unknown };

interface Tool {
  spec: ToolSpec;
  call(ctx: ToolContext, args: unknown): Promise<ToolOutcome>;
}

function tool<S extends z.ZodType>(
  name: string,
  description: string,
  args: S,
  run: (ctx: ToolContext, args: z.infer<S>) => Promise<unknown>,
): Tool {
  const { $schema: _, ...parameters } = z.toJSONSchema(args, { io: 'input' });
  return {
    spec: { name, description, parameters },
    async call(ctx, raw) {
      const parsed = args.safeParse(raw);
      if (!parsed.success) {
        const details = parsed.error.issues.map((issue) => ({ field: issue.path.join('.'), message: issue.message }));
        return { ok: false, error: 'invalid arguments', details };
      }
      const result = await run(ctx, parsed.data);
      return result && typeof result === 'object' && 'error' in result
        ? { ok: false, error: String(result.error) }
        : { ok: true, result };
    },
  };
}

const text = (max: number) => z.string().trim().min(1).max(max);

const TOOLS: Tool[] = [
  tool(
    'search_spots',
    'Find riding spots by place (a city or spot name) or near coordinates the rider shared.',
    z
      .object({
        place: text(LIMITS.spot.placeMax).optional(),
        near: z.object({ lat: z.number().min(-90).max(90), lng: z.number().min(-180).max(180) }).optional(),
        sport: z.enum(SPORTS).optional(),
        radiusKm: z.number().positive().max(LIMITS.spotSearchRadiusKm.max).optional(),
      })
      .strict(),
    async ({ store, env }, args) => ({ spots: await spotsFor(store, env, args) }),
  ),
  tool(
    'search_events',
    'Find upcoming events (contests, demos, jams) in a time window, optionally by place and sport.',
    z
      .object({
        when: z.enum(EVENT_WINDOWS).default('next-30-days'),
        place: text(LIMITS.spot.placeMax).optional(),
        sport: z.enum(EVENT_SPORTS).optional(),
      })
      .strict(),
    async ({ store, now }, args) => {
      const events = await findUpcomingEvents(store, {
        ...eventWindow(args.when, now),
        place: args.place,
        sport: args.sport,
        limit: LIMITS.companion.toolRowsMax,
      });
      return {
        window: args.when,
        events: events.map((event) => ({
          title: event.title ?? null,
          startAt: event.startAt?.toISOString() ?? null,
          city: event.venue?.city ?? null,
          country: event.venue?.country ?? null,
          sports: event.sports ?? [],
          online: event.isOnline ?? false,
        })),
      };
    },
  ),
  tool(
    'list_my_tricks',
    "Read the rider's own trick lists and the tricks on them.",
    z.object({}).strict(),
    async (ctx) => ({
      lists: await trickListsOf(ctx.store, ctx.userId),
    }),
  ),
  tool(
    'add_trick_to_list',
    "Add a trick to one of the rider's trick lists (by list name, else their newest list).",
    z.object({ trick: text(LIMITS.trickName.max), list: text(LIMITS.trickListName.max).optional() }).strict(),
    (ctx, args) => addTrickFor(ctx.store, ctx.userId, { ...args, sport: ctx.sport }),
  ),
  tool(
    'lookup_trick',
    'Look a trick up in the trickipedia, the encyclopedia of tricks.',
    z.object({ name: text(LIMITS.searchQueryMax) }).strict(),
    async ({ store, env }, args) => ({ entries: await trickipediaFor(store, env, args.name) }),
  ),
  tool(
    'search_blog',
    "Find posts on the app's blog about a topic (guides, news, interviews).",
    z.object({ topic: text(LIMITS.searchQueryMax) }).strict(),
    async ({ store, env }, args) => ({ posts: await blogPostsFor(store, env, args.topic) }),
  ),
  tool(
    'remember_fact',
    'Remember something about the rider for later chats: a fact, the name they go by, or a sport they ride.',
    z
      .object({ fact: text(LIMITS.companion.factMax), kind: z.enum(['fact', 'name', 'sport']).default('fact') })
      .strict(),
    async ({ learnings }, { fact, kind }) => {
      if (kind === 'name') learnings.name = fact.slice(0, LIMITS.name.max);
      else if (kind === 'sport') {
        const sport = SPORTS.find((known) => known === fact.toLowerCase());
        if (!sport) return { error: `unknown sport; one of ${SPORTS.join(', ')}` };
        learnings.sports.push(sport);
      } else learnings.facts.push(fact);
      return { remembered: fact, kind };
    },
  ),
];

/** The tools as offered to the model. */
export const TOOL_SPECS: ToolSpec[] = TOOLS.map((entry) => entry.spec);

export const findTool = (name: string) => TOOLS.find((entry) => entry.spec.name === name);
