import { describe, expect, it } from 'vitest';
import { moderationModel } from '../../../worker/moderation/model/settings';
import { readVerdict } from '../../../worker/moderation/model/verdict';
import { wholeNumberSetting } from '../../../worker/platform/config';
import type { Env } from '../../../worker/platform/env';
import { LIMITS } from '../../../worker/platform/limits';
import { retryDelayMinutes } from '../../../worker/social/review/checks';
import { reportReasonOf } from '../../../worker/social/review/reasons';

const result = (flagged: boolean, set: string[] = []) => ({
  flagged,
  categories: {
    harassment: set.includes('harassment'),
    'violence/graphic': set.includes('violence/graphic'),
    sexual: false,
  },
  category_scores: { harassment: 0.9, 'violence/graphic': 0.8, sexual: 0.01 },
});

describe("reading the moderation model's answer", () => {
  it('is flagged when any result is, with every category set in any flagged result, sorted', () => {
    const body = {
      id: 'modr-1',
      model: 'omni-moderation-latest',
      results: [result(true, ['violence/graphic', 'harassment']), result(false)],
    };
    expect(readVerdict(body)).toEqual({ outcome: 'flagged', categories: ['harassment', 'violence/graphic'] });
  });

  it('is clear when no result is flagged', () => {
    expect(readVerdict({ results: [result(false)] })).toEqual({ outcome: 'clear' });
  });

  it('reads an answer without results, or no JSON object, as no answer: never as clear', () => {
    for (const body of [{}, { results: [] }, { error: { message: 'x' } }, 'text', null, undefined]) {
      expect(readVerdict(body)).toMatchObject({ outcome: 'unavailable' });
    }
  });
});

describe('the report reason a model report files under', () => {
  it("names the first category's family the reasons know, else other", () => {
    expect(reportReasonOf(['harassment', 'violence'])).toBe('harassment');
    expect(reportReasonOf(['hate/threatening'])).toBe('hate');
    expect(reportReasonOf(['sexual/minors'])).toBe('nudity');
    expect(reportReasonOf(['self-harm/intent'])).toBe('self-harm');
    expect(reportReasonOf(['illicit/violent'])).toBe('violence');
    expect(reportReasonOf(['illicit'])).toBe('other');
    expect(reportReasonOf([])).toBe('other');
  });
});

describe('a later check retried', () => {
  it('waits twice as long each time, up to the cap', () => {
    const { checkRetryMinutes: first, checkRetryMaxMinutes: cap } = LIMITS.moderation;
    expect([1, 2, 3].map(retryDelayMinutes)).toEqual([first, first * 2, first * 4]);
    expect(retryDelayMinutes(40)).toBe(cap);
  });
});

describe('the moderation settings', () => {
  const env = (values: Partial<Env>) => values as Env;
  it('configure no model without MODERATION_PROVIDER', () => {
    expect(moderationModel(env({ MODERATION_API_KEY: 'k' }))).toBeNull();
  });

  it("send to the base URL's /v1/moderations, with or without /v1 given, and OpenAI's model by default", () => {
    for (const base of ['http://127.0.0.1:9/mod', 'http://127.0.0.1:9/mod/', 'http://127.0.0.1:9/mod/v1']) {
      expect(
        moderationModel(env({ MODERATION_PROVIDER: 'openai', MODERATION_API_KEY: 'k', MODERATION_BASE_URL: base })),
      ).toEqual({
        endpoint: 'http://127.0.0.1:9/mod/v1/moderations',
        apiKey: 'k',
        model: 'omni-moderation-latest',
        timeoutMs: LIMITS.moderation.modelTimeoutMs,
      });
    }
    expect(moderationModel(env({ MODERATION_PROVIDER: 'openai', MODERATION_API_KEY: 'k' }))?.endpoint).toBe(
      'https://api.openai.com/v1/moderations',
    );
  });

  it('refuse a provider without its key, an unknown provider and an unusable timeout, each by name', () => {
    expect(() => moderationModel(env({ MODERATION_PROVIDER: 'openai' }))).toThrow(/MODERATION_API_KEY is not set/);
    expect(() => moderationModel(env({ MODERATION_PROVIDER: 'acme', MODERATION_API_KEY: 'k' }))).toThrow(
      /MODERATION_PROVIDER must be one of openai/,
    );
    expect(() =>
      moderationModel(env({ MODERATION_PROVIDER: 'openai', MODERATION_API_KEY: 'k', MODERATION_TIMEOUT_MS: 'soon' })),
    ).toThrow(/MODERATION_TIMEOUT_MS/);
  });
});

describe('a whole-number setting where 0 means none', () => {
  const env = (value?: string) => ({ HIDDEN_RIDERS_CACHE_MS: value }) as Env;
  it('takes 0 and positive whole numbers, the fallback when unset, and refuses anything else by name', () => {
    expect(wholeNumberSetting(env('0'), 'HIDDEN_RIDERS_CACHE_MS', 5)).toBe(0);
    expect(wholeNumberSetting(env(' 250 '), 'HIDDEN_RIDERS_CACHE_MS', 5)).toBe(250);
    expect(wholeNumberSetting(env(), 'HIDDEN_RIDERS_CACHE_MS', 5)).toBe(5);
    for (const bad of ['-1', '1.5', 'soon']) {
      expect(() => wholeNumberSetting(env(bad), 'HIDDEN_RIDERS_CACHE_MS', 5)).toThrow(
        /HIDDEN_RIDERS_CACHE_MS must be a whole number/,
      );
    }
  });
});
