import type { IncomingMessage, ServerResponse } from 'node:http';

/** One answer of the stand-in model, taken in order; the last one repeats. */
export type ModelStep =
  | { reply: string }
  | { toolCalls: { name: string; arguments: string | Record<string, unknown> }[] }
  | { status: number; retryAfterMs?: number }
  | { hang: true };

/** A test's model: its steps, and `final`, the answer to a request with tool_choice "none" (else the steps answer it too). */
export interface ModelScript {
  steps: ModelStep[];
  final?: string;
}

/** A chat-completions request body as the stand-in received it. */
export interface RecordedRequest {
  model: string;
  messages: { role: string; content: string | null; tool_call_id?: string; tool_calls?: unknown[] }[];
  tools?: { type: string; function: { name: string; parameters: unknown } }[];
  tool_choice?: string;
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  let body = '';
  for await (const chunk of req) body += chunk;
  return body ? JSON.parse(body) : undefined;
}

function completion(model: string, message: Record<string, unknown>, finishReason: string) {
  return {
    id: `chatcmpl-${crypto.randomUUID()}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', refusal: null, ...message },
        finish_reason: finishReason,
        logprobs: null,
      },
    ],
    usage: { prompt_tokens: 120, completion_tokens: 30, total_tokens: 150 },
  };
}

const EMBEDDING_DIMENSIONS = 256;
const STOP_WORDS = new Set(
  'a an and are as at be by for from in is it its of on one or that the this to was where which while with you your'.split(
    ' ',
  ),
);

/**
 * The stand-in's embeddings: a hashed bag of word stems, normalised. Not a language model: texts
 * that share words land near each other, which is what the retrieval tests need to tell a vector
 * search ("the board spins under you") from the database's name search.
 */
export function bagOfWordsEmbedding(text: string): number[] {
  const vector = new Array<number>(EMBEDDING_DIMENSIONS).fill(0);
  for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    if (STOP_WORDS.has(word)) continue;
    const stem = word.length > 3 ? word.replace(/(es|s)$/, '') : word;
    let hash = 0;
    for (const char of stem) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
    vector[hash % EMBEDDING_DIMENSIONS]! += 1;
  }
  const norm = Math.hypot(...vector) || 1;
  return vector.map((value) => value / norm);
}

/**
 * An OpenAI-compatible chat-completions server (tool calls included), one model per name so
 * parallel test files never share a script:
 * - `POST /openai/<name>/v1/chat/completions`: answers from the script;
 * - `PUT /openai/<name>` with a ModelScript: sets the script and forgets earlier requests;
 * - `GET /openai/<name>/requests`: the request bodies received since;
 * - `POST /openai/<name>/v1/embeddings`: bag-of-words embeddings (bagOfWordsEmbedding), not recorded.
 */
export function createOpenAiHandler() {
  const scripts = new Map<string, { script: ModelScript; next: number; requests: RecordedRequest[] }>();
  return async (req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> => {
    const match = /^\/openai\/([\w.-]+)(\/v1\/chat\/completions|\/v1\/embeddings|\/requests)?$/.exec(path);
    if (!match) return false;
    const [, name, action] = match as unknown as [string, string, string | undefined];
    const state = scripts.get(name) ?? { script: { steps: [{ reply: 'Stand-in reply.' }] }, next: 0, requests: [] };
    scripts.set(name, state);
    if (req.method === 'PUT' && !action) {
      scripts.set(name, { script: (await readJson(req)) as ModelScript, next: 0, requests: [] });
      res.writeHead(204).end();
      return true;
    }
    if (req.method === 'GET' && action === '/requests') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(state.requests));
      return true;
    }
    if (req.method === 'POST' && action === '/v1/embeddings') {
      const body = (await readJson(req)) as { model: string; input: string | string[] };
      const inputs = Array.isArray(body.input) ? body.input : [body.input];
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          object: 'list',
          model: body.model,
          data: inputs.map((text, index) => ({ object: 'embedding', index, embedding: bagOfWordsEmbedding(text) })),
          usage: {
            prompt_tokens: inputs.join(' ').split(/\s+/).length,
            total_tokens: inputs.join(' ').split(/\s+/).length,
          },
        }),
      );
      return true;
    }
    if (req.method !== 'POST' || action !== '/v1/chat/completions') return false;
    const body = (await readJson(req)) as RecordedRequest;
    state.requests.push(body);
    if (body.tool_choice === 'none' && state.script.final !== undefined) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(completion(body.model, { content: state.script.final }, 'stop')));
      return true;
    }
    const steps = state.script.steps;
    const step = steps[Math.min(state.next++, steps.length - 1)]!;
    if ('hang' in step) return true;
    if ('status' in step) {
      const headers = {
        'content-type': 'application/json',
        ...(step.retryAfterMs ? { 'retry-after-ms': String(step.retryAfterMs) } : {}),
      };
      const error = {
        message: `stand-in error ${step.status}`,
        type: step.status === 429 ? 'rate_limit_exceeded' : 'server_error',
        param: null,
        code: null,
      };
      res.writeHead(step.status, headers).end(JSON.stringify({ error }));
      return true;
    }
    const message =
      'reply' in step
        ? { content: step.reply }
        : {
            content: null,
            tool_calls: step.toolCalls.map((call, i) => ({
              id: `call_${state.requests.length}_${i}`,
              type: 'function',
              function: {
                name: call.name,
                arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
              },
            })),
          };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(completion(body.model, message, 'reply' in step ? 'stop' : 'tool_calls')));
    return true;
  };
}
