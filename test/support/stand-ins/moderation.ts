import type { IncomingMessage, ServerResponse } from 'node:http';

/** How a test's moderation model answers: down (a status, or hanging), else flagging texts with these words and photos. */
export interface ModerationScript {
  down?: number | 'hang';
  /** Texts holding any of these words (any case) are flagged `harassment` and `violence`. */
  flagWords?: string[];
  /** Every photo is flagged `sexual`. */
  flagImages?: boolean;
}

/** A `/v1/moderations` request body as the stand-in received it, with the key it was sent. */
export interface RecordedModerationRequest {
  authorization: string | undefined;
  body: {
    model: string;
    input: string | string[] | ({ type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } })[];
  };
}

// Every category of omni-moderation-latest, as its answers list them.
const CATEGORIES = [
  'harassment',
  'harassment/threatening',
  'hate',
  'hate/threatening',
  'illicit',
  'illicit/violent',
  'self-harm',
  'self-harm/intent',
  'self-harm/instructions',
  'sexual',
  'sexual/minors',
  'violence',
  'violence/graphic',
];
const IMAGE_CATEGORIES = new Set([
  'self-harm',
  'self-harm/intent',
  'self-harm/instructions',
  'sexual',
  'violence',
  'violence/graphic',
]);

async function readJson(req: IncomingMessage): Promise<unknown> {
  let body = '';
  for await (const chunk of req) body += chunk;
  return body ? JSON.parse(body) : undefined;
}

/** One result of the real answer's shape: every category with its flag, score and the input types it was read from. */
function result(flagged: string[], types: ('text' | 'image')[]) {
  const set = new Set(flagged);
  return {
    flagged: set.size > 0,
    categories: Object.fromEntries(CATEGORIES.map((name) => [name, set.has(name)])),
    category_scores: Object.fromEntries(CATEGORIES.map((name) => [name, set.has(name) ? 0.93 : 0.0004])),
    category_applied_input_types: Object.fromEntries(
      CATEGORIES.map((name) => [name, types.filter((type) => type === 'text' || IMAGE_CATEGORIES.has(name))]),
    ),
  };
}

/**
 * An OpenAI-compatible moderation server, one per name so parallel test files never share a script:
 * - `POST /moderation/<name>/v1/moderations`: `{ model, input }` answered `{ id, model, results }`, as OpenAI does
 *   (one result per string of an array of strings; one for a multimodal array);
 * - `PUT /moderation/<name>` with a ModerationScript: sets the script and forgets earlier requests;
 * - `GET /moderation/<name>/requests`: the requests received since.
 */
export function createModerationHandler() {
  const states = new Map<string, { script: ModerationScript; requests: RecordedModerationRequest[] }>();
  return async (req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> => {
    const match = /^\/moderation\/([\w.-]+)(\/v1\/moderations|\/requests)?$/.exec(path);
    if (!match) return false;
    const [, name, action] = match as unknown as [string, string, string | undefined];
    const state = states.get(name) ?? { script: {}, requests: [] };
    states.set(name, state);
    if (req.method === 'PUT' && !action) {
      states.set(name, { script: (await readJson(req)) as ModerationScript, requests: [] });
      res.writeHead(204).end();
      return true;
    }
    if (req.method === 'GET' && action === '/requests') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(state.requests));
      return true;
    }
    if (req.method !== 'POST' || action !== '/v1/moderations') return false;
    const body = (await readJson(req)) as RecordedModerationRequest['body'];
    state.requests.push({ authorization: req.headers.authorization, body });
    const { down, flagWords = [], flagImages = false } = state.script;
    if (down === 'hang') return true;
    if (down) {
      const error = { message: 'stand-in outage', type: 'server_error', param: null, code: null };
      res.writeHead(down, { 'content-type': 'application/json' }).end(JSON.stringify({ error }));
      return true;
    }
    const flagText = (text: string) =>
      flagWords.some((word) => text.toLowerCase().includes(word.toLowerCase())) ? ['harassment', 'violence'] : [];
    const results =
      typeof body.input === 'string'
        ? [result(flagText(body.input), ['text'])]
        : body.input.every((part) => typeof part === 'string')
          ? (body.input as string[]).map((text) => result(flagText(text), ['text']))
          : [
              result(
                (body.input as Exclude<RecordedModerationRequest['body']['input'], string>).flatMap((part) =>
                  typeof part === 'string'
                    ? flagText(part)
                    : part.type === 'text'
                      ? flagText(part.text)
                      : flagImages
                        ? ['sexual']
                        : [],
                ),
                ['text', 'image'],
              ),
            ];
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id: `modr-${crypto.randomUUID()}`, model: body.model, results }));
    return true;
  };
}
