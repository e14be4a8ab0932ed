import type { TapeToolCall, TapeToolResult, ToolProvider, ToolResult } from '@agent/protocol';
import { errorMessage } from '@agent/protocol/util';
import { withExecute } from '../session-run/wrapping.js';
import type { TapeWriter } from './tape-recorder.js';

/** A provider's result as a tape keeps it: text, error flag and structured content, or the error. */
function tapeToolResult(result: ToolResult): TapeToolResult {
  if (!result.ok) return { ok: false, error: { message: result.error.message, kind: result.error.kind } };
  return {
    ok: true,
    text: result.text,
    ...(result.isError === undefined ? {} : { isError: result.isError }),
    ...(result.structured === undefined ? {} : { structured: result.structured }),
  };
}

/**
 * A provider that appends each call and the result it returned (a sub-agent's without its op
 * tree, which the record has under the call) to `writer`'s tape.
 */
export function recordToolProvider(provider: ToolProvider, writer: TapeWriter): ToolProvider {
  return withExecute(provider, async (call, options) => {
    // On the tape in the order the calls start (parallel calls end in any order).
    const entry: TapeToolCall = {
      callId: call.callId,
      name: call.name,
      provider: provider.id,
      ...(provider.kind === undefined ? {} : { kind: provider.kind }),
      arguments: call.arguments,
      result: { ok: false, error: { kind: 'aborted', message: 'the call did not end' } },
      startedAt: Date.now(),
      durationMs: 0,
    };
    writer.tape.toolCalls.push(entry);
    try {
      const result = await provider.execute(call, options);
      entry.result = tapeToolResult(result);
      return result;
    } catch (error) {
      entry.result = { ok: false, error: { kind: 'execution', message: errorMessage(error) } };
      throw error;
    } finally {
      entry.durationMs = Date.now() - entry.startedAt;
    }
  });
}
