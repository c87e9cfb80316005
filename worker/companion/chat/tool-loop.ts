import { LIMITS } from '../../platform/limits';
import type { ChatMessage, ModelProvider, PersonaContext } from './providers/types';
import { TOOL_SPECS, type ToolContext } from './tools/catalog';
import { runToolCall } from './tools/run';

/** Tool calls run from one model answer; more are answered with an error, as every call needs a result. */
const CALLS_PER_ANSWER_MAX = 5;

export interface LoopResult {
  /** The model's final text; null when it gave none. */
  content: string | null;
  usage: { promptTokens: number; completionTokens: number };
  /** Characters sent to the model over all calls, for providers that count no tokens. */
  inputChars: number;
  modelCalls: number;
  toolCalls: number;
}

const charsOf = (messages: ChatMessage[]) => messages.reduce((sum, message) => sum + (message.content?.length ?? 0), 0);

/**
 * The tool-calling loop (the interface spec, Limits): up to `toolIterationsMax` rounds with
 * tool choice automatic, each running the tools asked for, then one last call with tool choice
 * `none` for the answer, whatever the model still wants.
 */
export async function runToolLoop(
  provider: ModelProvider,
  start: ChatMessage[],
  persona: PersonaContext,
  tools: ToolContext,
): Promise<LoopResult> {
  const messages = [...start];
  const result: LoopResult = {
    content: null,
    usage: { promptTokens: 0, completionTokens: 0 },
    inputChars: 0,
    modelCalls: 0,
    toolCalls: 0,
  };
  const ask = async (toolChoice: 'auto' | 'none') => {
    result.inputChars += charsOf(messages);
    result.modelCalls += 1;
    const turn = await provider.complete({ messages, tools: TOOL_SPECS, toolChoice, persona });
    result.usage.promptTokens += turn.usage.promptTokens;
    result.usage.completionTokens += turn.usage.completionTokens;
    return turn;
  };

  for (let iteration = 0; iteration < LIMITS.companion.toolIterationsMax; iteration++) {
    const turn = await ask('auto');
    if (!turn.toolCalls.length) return { ...result, content: turn.content };
    messages.push({ role: 'assistant', content: turn.content, toolCalls: turn.toolCalls });
    for (const [index, call] of turn.toolCalls.entries()) {
      const content =
        index < CALLS_PER_ANSWER_MAX
          ? (await runToolCall(tools, call)).content
          : JSON.stringify({ error: `at most ${CALLS_PER_ANSWER_MAX} tool calls at once` });
      result.toolCalls += 1;
      messages.push({ role: 'tool', toolCallId: call.id, content });
    }
  }
  const final = await ask('none');
  return { ...result, content: final.content };
}
