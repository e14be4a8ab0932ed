import type { ToolCall } from '@agent/protocol';
import { isRecord } from '@agent/protocol/util';

const WRAPPER_NAMES = new Set(['multi_tool_use.parallel', 'parallel']);

/**
 * OpenAI models sometimes call an undeclared `multi_tool_use.parallel` (or `parallel`) wrapper
 * with `{ tool_uses: [{ recipient_name: 'functions.x', parameters }] }` instead of making
 * parallel calls. Such a call becomes the calls it wraps (ids `<id>_0`, `<id>_1`, ...), but only
 * when the wrapper is not a declared tool and every wrapped name is one; otherwise it is kept.
 */
export function expandParallelWrapper(call: ToolCall, declared: ReadonlySet<string>): ToolCall[] {
  if (!WRAPPER_NAMES.has(call.name) || declared.has(call.name) || call.parseError !== undefined)
    return [call];
  const uses = call.arguments.tool_uses;
  if (!Array.isArray(uses) || uses.length === 0) return [call];
  const calls: ToolCall[] = [];
  for (const [index, use] of uses.entries()) {
    if (!isRecord(use) || typeof use.recipient_name !== 'string') return [call];
    const name = use.recipient_name.replace(/^functions\./, '');
    if (!declared.has(name)) return [call];
    const args = isRecord(use.parameters) ? use.parameters : {};
    calls.push({ id: `${call.id}_${index}`, name, arguments: args, rawArguments: JSON.stringify(args) });
  }
  return calls;
}
