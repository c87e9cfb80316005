import type { CompanionStage } from '../stages';

/** One tool call the model asked for; `arguments` is the model's JSON text, unchecked. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** The conversation as every provider takes it (OpenAI's chat roles, without its wire names). */
export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | null; toolCalls?: ToolCall[] }
  | { role: 'tool'; toolCallId: string; content: string };

/** A tool as offered to the model: its JSON schema comes from the tool's zod schema. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** What the persona is built from, also handed to providers that build no prompt (the offline one). */
export interface PersonaContext {
  name?: string;
  stage: CompanionStage;
  facts: string[];
  sports: string[];
  /** Set when an on-stage request asks for a trick demonstration (worker/companion/chat/demo.ts). */
  demoTrick?: string;
}

export interface ChatRequest {
  messages: ChatMessage[];
  tools: ToolSpec[];
  /** `none` asks for a final answer: the loop's tool budget is spent. */
  toolChoice: 'auto' | 'none';
  persona: PersonaContext;
}

export interface ChatTurn {
  content: string | null;
  toolCalls: ToolCall[];
  usage: { promptTokens: number; completionTokens: number };
}

/** A chat model: OpenAI-compatible over HTTP, or the offline companion. */
export interface ModelProvider {
  readonly name: 'openai' | 'offline';
  readonly model: string;
  /** Whether its calls cost money: only a priced model's replies take from the allowance or credit. */
  readonly priced: boolean;
  complete(request: ChatRequest): Promise<ChatTurn>;
}

/**
 * The model could not answer: `unavailable` (timed out, unreachable: try again soon) or
 * `failed` (it answered with an error). The chat routes turn these into 503 and 502.
 */
export class ProviderError extends Error {
  constructor(
    readonly kind: 'unavailable' | 'failed',
    message: string,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}
