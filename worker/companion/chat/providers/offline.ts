import { demoTemplate } from '../demo';
import { asksAboutMemory, moodOf, plainIntent } from '../intents';
import { phraseToolResult, recollection } from './offline-phrases';
import type { ChatMessage, ChatRequest, ChatTurn, ModelProvider, PersonaContext } from './types';

const NO_USAGE = { promptTokens: 0, completionTokens: 0 };

/** Same text in, same line out: a small stable hash picks among equivalent lines. */
function pick<T>(options: T[], seed: string): T {
  let hash = 0;
  for (const char of seed) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return options[hash % options.length]!;
}

function smallTalk(message: string, persona: PersonaContext): string {
  const name = persona.name && persona.stage !== 'stranger' ? `, ${persona.name}` : '';
  if (/^\s*(hi|hey|hello|yo|sup|hiya)\b/i.test(message)) {
    return persona.stage === 'stranger'
      ? 'Hey, good to meet you. What do you ride?'
      : `Hey${name}. What are we riding today?`;
  }
  switch (moodOf(message)) {
    case 'frustrated':
      return `Rough one${name}. Take five, then go again: every slam teaches you something.`;
    case 'nervous':
      return 'Nerves are normal. Start small and build up to it.';
    case 'tired':
      return `Rest up${name}. Fresh legs land more tricks.`;
    case 'stoked':
      return `Let's go${name}! That is what I like to hear.`;
    default:
      return pick(
        [
          `Sounds good${name}. What are you working on lately?`,
          'Tell me more. Want me to find a spot or an event for it?',
          `I hear you${name}. Ask me about spots, events or your trick list any time.`,
        ],
        message,
      );
  }
}

/** The tool calls of the assistant message the trailing tool results answer. */
function answeredCalls(messages: ChatMessage[]): { name: string; content: string }[] {
  const results = [];
  let i = messages.length - 1;
  while (i >= 0 && messages[i]!.role === 'tool') results.unshift(messages[i--]!);
  const asked = messages[i];
  const calls = asked?.role === 'assistant' ? (asked.toolCalls ?? []) : [];
  return results.flatMap((result) => {
    if (result.role !== 'tool') return [];
    const call = calls.find((c) => c.id === result.toolCallId);
    return call ? [{ name: call.name, content: result.content }] : [];
  });
}

/**
 * The offline companion, used when no OPENAI_API_KEY is set: no network and no model. It
 * answers deterministically in persona, in 1 to 3 sentences, calls the same tools as the real
 * model when a message plainly asks for something, and phrases the tools' results.
 */
export function offlineProvider(): ModelProvider {
  return {
    name: 'offline',
    model: 'offline-companion',
    priced: false,
    async complete(request: ChatRequest): Promise<ChatTurn> {
      const last = request.messages[request.messages.length - 1];
      if (last?.role === 'tool') {
        const lines = answeredCalls(request.messages).map((call) => phraseToolResult(call.name, call.content));
        return { content: lines.slice(0, 2).join(' ') || 'Done.', toolCalls: [], usage: NO_USAGE };
      }
      const message = last?.role === 'user' ? last.content : '';
      if (request.persona.demoTrick) {
        return { content: demoTemplate(request.persona.demoTrick), toolCalls: [], usage: NO_USAGE };
      }
      if (asksAboutMemory(message)) return { content: recollection(request.persona), toolCalls: [], usage: NO_USAGE };
      const intent = request.toolChoice === 'auto' ? plainIntent(message) : null;
      if (intent && request.tools.some((tool) => tool.name === intent.tool)) {
        const call = { id: `offline-${intent.tool}`, name: intent.tool, arguments: JSON.stringify(intent.args) };
        return { content: null, toolCalls: [call], usage: NO_USAGE };
      }
      return { content: smallTalk(message, request.persona), toolCalls: [], usage: NO_USAGE };
    },
  };
}
