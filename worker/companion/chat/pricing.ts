// What a model call costs, for ai_response_completed (interface spec: cost in micros).

/** USD micros per million tokens, input and output, from the providers' published price lists. */
const PRICES: Record<string, { input: number; output: number }> = {
  'gpt-4o-mini': { input: 150_000, output: 600_000 },
  'gpt-4o': { input: 2_500_000, output: 10_000_000 },
  'gpt-4.1-nano': { input: 100_000, output: 400_000 },
  'gpt-4.1-mini': { input: 400_000, output: 1_600_000 },
  'gpt-4.1': { input: 2_000_000, output: 8_000_000 },
  'offline-companion': { input: 0, output: 0 },
};

/** Cost in USD micros, or null for a model whose price is not listed here (an OpenAI-compatible server's own). */
export function costMicros(model: string, usage: { promptTokens: number; completionTokens: number }): number | null {
  const price = PRICES[model];
  if (!price) return null;
  return Math.round((usage.promptTokens * price.input + usage.completionTokens * price.output) / 1_000_000);
}
