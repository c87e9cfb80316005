import OpenAI, { APIConnectionError, APIError } from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { type ChatMessage, type ChatRequest, type ChatTurn, type ModelProvider, ProviderError } from './types';

/** Used when OPENAI_MODEL is unset: small, cheap and good at tool calls. */
export const DEFAULT_OPENAI_MODEL = 'gpt-4o-mini';

function toWire(message: ChatMessage): ChatCompletionMessageParam {
  switch (message.role) {
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
    case 'assistant':
      return {
        role: 'assistant',
        content: message.content,
        ...(message.toolCalls?.length
          ? {
              tool_calls: message.toolCalls.map((call) => ({
                id: call.id,
                type: 'function' as const,
                function: { name: call.name, arguments: call.arguments },
              })),
            }
          : {}),
      };
    default:
      return message;
  }
}

/** Why the model gave no answer, as the chat routes report it; never the key or the prompt. */
function providerError(err: unknown): ProviderError {
  if (err instanceof APIConnectionError) return new ProviderError('unavailable', `model unreachable: ${err.message}`);
  if (err instanceof APIError && err.status === 429) return new ProviderError('unavailable', 'model rate-limited');
  if (err instanceof APIError) return new ProviderError('failed', `model answered ${err.status ?? 'an error'}`);
  return new ProviderError('failed', err instanceof Error ? err.message : String(err));
}

/**
 * Chat completions through the official SDK against any OpenAI-compatible server. The SDK
 * retries once on 408/409/429/5xx and on connection errors, honouring Retry-After.
 */
export function openAiProvider(settings: {
  apiKey: string;
  baseURL?: string;
  model: string;
  timeoutMs: number;
}): ModelProvider {
  const client = new OpenAI({
    apiKey: settings.apiKey,
    baseURL: settings.baseURL,
    timeout: settings.timeoutMs,
    maxRetries: 1,
  });
  return {
    name: 'openai',
    model: settings.model,
    // Any OpenAI-compatible server is taken to bill its calls; an unlisted model costs the reservation.
    priced: true,
    async complete(request: ChatRequest): Promise<ChatTurn> {
      const tools: ChatCompletionTool[] = request.tools.map((tool) => ({ type: 'function', function: tool }));
      let completion: OpenAI.Chat.Completions.ChatCompletion;
      try {
        completion = await client.chat.completions.create({
          model: settings.model,
          messages: request.messages.map(toWire),
          ...(tools.length ? { tools, tool_choice: request.toolChoice } : {}),
        });
      } catch (err) {
        throw providerError(err);
      }
      const message = completion.choices[0]?.message;
      if (!message) throw new ProviderError('failed', 'model answered without a choice');
      return {
        content: message.content ?? null,
        toolCalls: (message.tool_calls ?? []).flatMap((call) =>
          call.type === 'function'
            ? [{ id: call.id, name: call.function.name, arguments: call.function.arguments }]
            : [],
        ),
        usage: {
          promptTokens: completion.usage?.prompt_tokens ?? 0,
          completionTokens: completion.usage?.completion_tokens ?? 0,
        },
      };
    },
  };
}
