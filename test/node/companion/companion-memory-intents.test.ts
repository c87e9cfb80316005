import { describe, expect, it } from 'vitest';
import { demoRequest } from '../../../worker/companion/chat/demo';
import { asksAboutMemory, plainIntent } from '../../../worker/companion/chat/intents';
import { offlineProvider } from '../../../worker/companion/chat/providers/offline';
import type { PersonaContext } from '../../../worker/companion/chat/providers/types';

// What the offline companion makes of a message about memory: a question about what it knows lists what it
// remembers and stores nothing; a statement or an order to remember is kept; anything else is neither.
const RECALL = 'recall';
const fact = (text: string) => ({ tool: 'remember_fact', args: { fact: text } });

const PHRASINGS: [string, typeof RECALL | ReturnType<typeof plainIntent>][] = [
  // Questions about what it knows: listed, never stored.
  ['what do you remember about me?', RECALL],
  ['What do you know about me', RECALL],
  ['what else do you remember?', RECALL],
  ['what have you remembered so far?', RECALL],
  ['anything you remember about me?', RECALL],
  ['do you remember my name?', RECALL],
  ['do you remember me?', RECALL],
  ['do you still remember?', RECALL],
  ['do you know what I ride?', RECALL],
  ['do you remember that I ride goofy?', RECALL],
  ['can you recall what I told you?', RECALL],
  ["what's my name?", RECALL],
  ['who am I?', RECALL],
  ['what do I ride?', RECALL],
  ['what did I tell you about myself?', RECALL],
  ['remember me?', RECALL],
  ['remember about me?', RECALL],
  // Orders to tell what it knows: listed too.
  ['tell me what you remember', RECALL],
  ['tell me everything you know about me.', RECALL],
  ['list what you know about me please', RECALL],
  // Statements and orders to remember: kept.
  ['remember that I broke my wrist in March', fact('I broke my wrist in March')],
  ['please remember I ride goofy', fact('I ride goofy')],
  ['can you remember that my deck is 8 inches?', fact('my deck is 8 inches')],
  ["Don't forget that I'm scared of vert.", fact("I'm scared of vert")],
  ['ok, remember my shoe size is 44', fact('my shoe size is 44')],
  ['my name is Sam', { tool: 'remember_fact', args: { fact: 'Sam', kind: 'name' } }],
  ['call me Sam', { tool: 'remember_fact', args: { fact: 'Sam', kind: 'name' } }],
  ['I ride bmx', { tool: 'remember_fact', args: { fact: 'bmx', kind: 'sport' } }],
  // Neither: the rider reminiscing, or asking about something other than themselves.
  ['I remember my first kickflip', null],
  ['what do you know about kickflips?', null],
  ['do you know where the skatepark is?', null],
  ['do you know any spots near Berlin?', { tool: 'search_spots', args: { place: 'Berlin' } }],
  ['what do you think about vert?', null],
];

describe('the offline companion reads memory questions and memory statements apart', () => {
  it.each(PHRASINGS)('%s', (message, expected) => {
    expect(asksAboutMemory(message)).toBe(expected === RECALL);
    expect(plainIntent(message)).toEqual(expected === RECALL ? null : expected);
  });
});

const persona = (over: Partial<PersonaContext> = {}): PersonaContext => ({
  stage: 'friend',
  facts: [],
  sports: [],
  ...over,
});

async function answer(message: string, context: PersonaContext) {
  return offlineProvider().complete({
    messages: [{ role: 'user', content: message }],
    tools: [],
    toolChoice: 'auto',
    persona: context,
  });
}

describe('the offline companion answers what it remembers', () => {
  it('lists the name, sports and newest facts it knows, and calls no tool', async () => {
    const turn = await answer(
      'what do you remember about me?',
      persona({ name: 'Sam', sports: ['bmx'], facts: ['old fact', 'I broke my wrist in March', 'I ride goofy'] }),
    );
    expect(turn.toolCalls).toEqual([]);
    expect(turn.content).toContain('Sam');
    expect(turn.content).toContain('bmx');
    // Said back to the rider: their "I" is "you".
    expect(turn.content).toContain('you told me you ride goofy, you broke your wrist in March');
    expect(turn.content).not.toMatch(/\b(I|my)\b/);
    expect(turn.content).not.toContain('remember that');
  });

  it('is no trick demonstration on stage', () => {
    expect(demoRequest('show me what you remember')).toBeNull();
    expect(asksAboutMemory('show me what you remember')).toBe(true);
  });

  it('says it knows nothing yet when the profile is empty', async () => {
    const turn = await answer('what do you know about me?', persona());
    expect(turn.toolCalls).toEqual([]);
    expect(turn.content).toMatch(/don't know much about you yet/);
  });
});
