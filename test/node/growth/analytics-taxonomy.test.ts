import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isExcludedAccount } from '../../../worker/growth/analytics/exclusion';
import {
  ANALYTICS_EVENT_NAMES,
  ANALYTICS_EVENTS,
  COUNTED_FROM,
  COUNTED_MEANINGFUL_ACTIONS_FILTER,
  MEANINGFUL_ACTIONS,
} from '../../../worker/growth/analytics/taxonomy';

// The interface spec, "Analytics event names", copied by hand: the taxonomy must match it exactly.
const SPEC_NAMES = `app_installed app_opened signup_completed onboarding_started onboarding_completed session_ended
trick_viewed trick_added trick_attempt_logged trick_landed progression_status_changed
spot_viewed spot_saved spot_directions_opened event_viewed event_saved event_calendar_added event_shared
ai_session_started ai_response_completed ai_session_completed ai_allowance_exhausted
post_created comment_created rider_followed homie_connected
notification_permission_result notification_received notification_opened
version_heartbeat update_prompt_seen update_prompt_dismissed update_store_opened update_completed
paywall_viewed checkout_started trial_started subscription_started subscription_renewed subscription_canceled
subscription_expired ai_credit_debited`.split(/\s+/);
// Names added beyond the spec's list: experiment_exposed (experiments).
const ADDED_NAMES = ['experiment_exposed'];

describe('analytics taxonomy', () => {
  it('holds exactly the event names of the interface spec, and those issues added', () => {
    expect([...ANALYTICS_EVENT_NAMES].sort()).toEqual([...SPEC_NAMES, ...ADDED_NAMES].sort());
  });

  it("maps the spec's meaningful actions to their value domains", () => {
    expect(MEANINGFUL_ACTIONS).toEqual({
      trick_added: 'progression',
      trick_attempt_logged: 'progression',
      trick_landed: 'progression',
      spot_saved: 'discovery',
      spot_directions_opened: 'discovery',
      event_saved: 'discovery',
      event_calendar_added: 'discovery',
      ai_response_completed: 'coaching',
      post_created: 'community',
      comment_created: 'community',
      rider_followed: 'community',
      homie_connected: 'community',
    });
  });

  it('the counted-copy filter takes the server copy of server-counted names and the client copy of the others', () => {
    const branches = COUNTED_MEANINGFUL_ACTIONS_FILTER.$or as { name: unknown; platform: unknown }[];
    const namesOf = (platform: (p: unknown) => boolean) =>
      branches
        .filter((branch) => platform(branch.platform))
        .flatMap((branch) =>
          typeof branch.name === 'string' ? [branch.name] : (branch.name as { $in: string[] }).$in,
        );
    const names = Object.keys(MEANINGFUL_ACTIONS) as (keyof typeof MEANINGFUL_ACTIONS)[];
    const server = namesOf((p) => p === 'server');
    const client = namesOf((p) => JSON.stringify(p) === JSON.stringify({ $ne: 'server' }));
    expect(server.sort()).toEqual(names.filter((name) => COUNTED_FROM[name] === 'server').sort());
    expect(client.sort()).toEqual(names.filter((name) => COUNTED_FROM[name] === 'client').sort());
    expect(server).toEqual(expect.arrayContaining(['trick_added', 'post_created', 'ai_response_completed']));
  });

  it('counts a coaching turn only when it was substantive', () => {
    expect(COUNTED_MEANINGFUL_ACTIONS_FILTER.$or).toContainEqual({
      name: 'ai_response_completed',
      platform: 'server',
      'properties.substantive': true,
    });
  });

  it('every property schema refuses unknown keys and free text', () => {
    for (const name of ANALYTICS_EVENT_NAMES) {
      const schema = ANALYTICS_EVENTS[name].properties;
      expect(schema.safeParse({ note: 'x' }).success, name).toBe(false);
      for (const key of Object.keys(schema.shape)) {
        expect(schema.safeParse({ [key]: 'Meet me at 5 Main St, call Anna' }).success, `${name}.${key}`).toBe(false);
      }
    }
  });
});

describe('excluded accounts', () => {
  it('role admin, isBot or analyticsExcluded exclude an account; nothing else does', () => {
    expect(isExcludedAccount({ role: 'admin' })).toBe(true);
    expect(isExcludedAccount({ role: null, isBot: true })).toBe(true);
    expect(isExcludedAccount({ role: null, analyticsExcluded: true })).toBe(true);
    expect(isExcludedAccount({ role: null, isBot: false, analyticsExcluded: false })).toBe(false);
    expect(isExcludedAccount({ role: null })).toBe(false);
  });
});

describe('docs/analytics.md', () => {
  it('lists every event name of the taxonomy', () => {
    const doc = readFileSync(new URL('../../../docs/analytics.md', import.meta.url), 'utf8');
    expect(ANALYTICS_EVENT_NAMES.filter((name) => !doc.includes(name))).toEqual([]);
  });
});
