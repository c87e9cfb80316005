import { describeError } from '../../platform/ops/log-line';
import type { ModerationModel } from './settings';
import { readVerdict, type Verdict } from './verdict';

/** What is sent: a rider's text, or a photo as a data URL (it is not public yet, so the model could not fetch it). */
export type ModerationInput = { text: string } | { imageDataUrl: string };

/**
 * Asks the model (`POST /v1/moderations`, `{ model, input }`) about one text or photo. Never throws for the
 * model's sake: a timeout, a network failure, a non-2xx answer or one that cannot be read is `unavailable`,
 * and the caller publishes the content and checks it later.
 */
export async function askModerationModel(
  model: ModerationModel,
  input: ModerationInput,
  timeoutMs = model.timeoutMs,
): Promise<Verdict> {
  const body = {
    model: model.model,
    // A text goes as a plain string, which every OpenAI-compatible server takes; a photo as an image part.
    input: 'text' in input ? input.text : [{ type: 'image_url', image_url: { url: input.imageDataUrl } }],
  };
  try {
    const res = await fetch(model.endpoint, {
      method: 'POST',
      headers: { authorization: `Bearer ${model.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!res.ok) {
      await res.body?.cancel();
      return { outcome: 'unavailable', error: `the model answered ${res.status}` };
    }
    return readVerdict(await res.json().catch(() => undefined));
  } catch (err) {
    const timedOut = err instanceof Error && err.name === 'TimeoutError';
    return { outcome: 'unavailable', error: timedOut ? `no answer within ${timeoutMs} ms` : describeError(err) };
  }
}
