import { describe, expect, it } from 'vitest';
import {
  DEMO_SENTENCES,
  demoRequest,
  demoTemplate,
  enforceDemo,
  isDemoReply,
} from '../../../worker/companion/chat/demo';
import { moodOf, plainIntent } from '../../../worker/companion/chat/intents';
import { personaPrompt } from '../../../worker/companion/chat/persona';
import { clampSentences, splitSentences } from '../../../worker/companion/chat/sentences';
import { STAGE_THRESHOLDS, stageFor } from '../../../worker/companion/chat/stages';
import { eventWindow } from '../../../worker/companion/chat/tools/events';

const GOOD_DEMO =
  'Fine, a heelflip. Watch this. Wind up low over the board. Pop it hard off the tail. Spin it with your heel. Land on the bolts and roll away. That was adequate.';

describe('stage demonstrations', () => {
  it('accepts a reply with the fixed structure', () => {
    expect(splitSentences(GOOD_DEMO)).toHaveLength(DEMO_SENTENCES);
    expect(isDemoReply(GOOD_DEMO)).toBe(true);
    expect(enforceDemo(GOOD_DEMO, 'heelflip')).toEqual({ text: GOOD_DEMO, rebuilt: false });
  });

  it.each([
    ['an excited opener', GOOD_DEMO.replace('Fine, a heelflip.', 'Yes, a heelflip!')],
    [
      'phases out of order',
      GOOD_DEMO.replace(
        'Pop it hard off the tail. Spin it with your heel.',
        'Spin it with your heel. Pop it hard off the tail.',
      ),
    ],
    ['no watch this', GOOD_DEMO.replace('Watch this.', 'Look here.')],
    ['a statement instead of an order', GOOD_DEMO.replace('Pop it hard', 'I pop it hard')],
    ['an extra sentence', `${GOOD_DEMO} Again?`],
    ['chatty prose', 'Sure! Kickflips are great, you wind up, pop, spin and land. Easy.'],
  ])('rebuilds the template from a reply with %s', (_, reply) => {
    expect(isDemoReply(reply)).toBe(false);
    const { text, rebuilt } = enforceDemo(reply, 'heelflip');
    expect(rebuilt).toBe(true);
    expect(text).toBe(demoTemplate('heelflip'));
    expect(isDemoReply(text)).toBe(true);
  });

  it('keeps a trick name with a phase word in it valid', () => {
    expect(isDemoReply(demoTemplate('pop shove-it'))).toBe(true);
  });

  it('recognises a demo request and its trick', () => {
    expect(demoRequest('show me a kickflip')).toBe('kickflip');
    expect(demoRequest('Can you do a tre flip for me?')).toBe('tre flip');
    expect(demoRequest('demo your best heelflip please')).toBe('best heelflip');
    expect(demoRequest('do you like pizza?')).toBeNull();
    expect(demoRequest('what is a heelflip')).toBeNull();
  });
});

describe('the offline companion reads plain intents', () => {
  it.each([
    ['spots near Berlin', { tool: 'search_spots', args: { place: 'Berlin' } }],
    ['any skate spots in Porto?', { tool: 'search_spots', args: { place: 'Porto' } }],
    ['events this weekend', { tool: 'search_events', args: { when: 'this-weekend' } }],
    [
      'any contests in Barcelona this weekend?',
      { tool: 'search_events', args: { when: 'this-weekend', place: 'Barcelona' } },
    ],
    ['add kickflip to my list', { tool: 'add_trick_to_list', args: { trick: 'kickflip' } }],
    ['Add a 50-50 grind to my trick list', { tool: 'add_trick_to_list', args: { trick: '50-50 grind' } }],
    ['what is a heelflip', { tool: 'lookup_trick', args: { name: 'heelflip' } }],
    ["what's on my list?", { tool: 'list_my_tricks', args: {} }],
    ['my name is Sam', { tool: 'remember_fact', args: { fact: 'Sam', kind: 'name' } }],
    ['I ride snowboard mostly', { tool: 'remember_fact', args: { fact: 'snowboarding', kind: 'sport' } }],
    ['remember that I broke my wrist in March', { tool: 'remember_fact', args: { fact: 'I broke my wrist in March' } }],
  ])('%s', (message, intent) => {
    expect(plainIntent(message)).toEqual(intent);
  });

  it('finds no intent in small talk', () => {
    expect(plainIntent('hey, how is it going?')).toBeNull();
  });

  it('reads a mood from plain words', () => {
    expect(moodOf('finally landed it')).toBe('stoked');
    expect(moodOf("ugh I can't land it")).toBe('frustrated');
    expect(moodOf('that rail looks sketchy')).toBe('nervous');
    expect(moodOf('nice weather')).toBe('neutral');
  });
});

describe('persona and stages', () => {
  it('advances the stage at each threshold and never below the first', () => {
    for (const { stage, from } of STAGE_THRESHOLDS) {
      expect(stageFor(from)).toBe(stage);
      if (from > 0) expect(stageFor(from - 1)).not.toBe(stage);
    }
    expect(stageFor(10_000)).toBe('bestie');
  });

  it('builds the prompt from the profile and the stage, asking for 1 to 3 short sentences', () => {
    const prompt = personaPrompt({ name: 'Sam', stage: 'friend', facts: ['rides a 8.25 deck'], sports: ['bmx'] });
    expect(prompt).toContain('1 to 3 short sentences');
    expect(prompt).toContain('Sam');
    expect(prompt).toContain('rides a 8.25 deck');
    expect(prompt).toContain('bmx');
    expect(prompt).toMatch(/friends/);
    expect(prompt).not.toContain('watch this');
  });

  it('cuts a long reply to the first sentences', () => {
    expect(clampSentences('One. Two! Three? Four.', 3)).toBe('One. Two! Three?');
    expect(clampSentences('no punctuation at all', 3)).toBe('no punctuation at all');
  });
});

describe('event windows (UTC calendar days)', () => {
  const at = (iso: string) => new Date(iso);
  it('"this weekend" on a Wednesday is the coming Saturday and Sunday', () => {
    expect(eventWindow('this-weekend', at('2026-05-06T15:00:00Z'))).toEqual({
      from: at('2026-05-09T00:00:00Z'),
      to: at('2026-05-11T00:00:00Z'),
    });
  });
  it('"this weekend" on a Sunday is what is left of it', () => {
    expect(eventWindow('this-weekend', at('2026-05-10T08:00:00Z'))).toEqual({
      from: at('2026-05-10T00:00:00Z'),
      to: at('2026-05-11T00:00:00Z'),
    });
  });
});
