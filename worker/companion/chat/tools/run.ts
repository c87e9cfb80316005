import { LIMITS } from '../../../platform/limits';
import { describeError, logEvent } from '../../../platform/ops/log-line';
import type { ToolCall } from '../providers/types';
import { findTool, type ToolContext, type ToolOutcome } from './catalog';

/**
 * Runs one tool call and returns the tool message's content. Whatever goes wrong (an unknown
 * tool, arguments that are not JSON or break the schema, the tool itself failing) becomes a
 * result the model reads and can answer around; a reply never fails because of a tool.
 */
export async function runToolCall(
  ctx: ToolContext,
  call: ToolCall,
): Promise<{ content: string; outcome: ToolOutcome }> {
  const outcome = await outcomeOf(ctx, call);
  const content = JSON.stringify(outcome.ok ? outcome.result : { error: outcome.error, details: outcome.details });
  const max = LIMITS.companion.toolResultCharsMax;
  return { content: content.length > max ? `${content.slice(0, max)}…(cut)` : content, outcome };
}

async function outcomeOf(ctx: ToolContext, call: ToolCall): Promise<ToolOutcome> {
  const tool = findTool(call.name);
  if (!tool) return { ok: false, error: `no tool named ${call.name}` };
  let args: unknown;
  try {
    args = call.arguments.trim() ? JSON.parse(call.arguments) : {};
  } catch {
    return { ok: false, error: 'invalid arguments: not JSON' };
  }
  try {
    return await tool.call(ctx, args);
  } catch (err) {
    logEvent('companion.tool.failed', { tool: call.name, error: describeError(err) });
    return { ok: false, error: 'the tool failed; try again later or answer without it' };
  }
}
