import { isDeepStrictEqual } from 'node:util';
import type { SessionTape, TapeToolCall, TapeToolResult, ToolResult } from '@agent/protocol';
import type { SessionHooks } from '@agent/runtime';
import type { Divergence, SessionLabel } from '../types.js';
import { type SessionLabeler, sessionLabel } from './record-tapes.js';

/** `sessionHooks.toolCall` answering from the record, and what it found different. */
export interface ToolReplay {
  toolCall: NonNullable<SessionHooks['toolCall']>;
  readonly divergences: readonly Divergence[];
}

/**
 * Answers each tool call from the tape of its session: the recorded call with the same call id
 * (else the first unused one of that name). Arguments that differ from the record are a `call`
 * divergence, and the recorded result still comes back; a call the record does not have gets an
 * error result ("no recorded result") and a divergence. Each recorded call answers once.
 */
export function createToolReplay(
  tapes: ReadonlyMap<SessionLabel, SessionTape>,
  label: SessionLabeler = sessionLabel,
): ToolReplay {
  const used = new Set<TapeToolCall>();
  const seen = new Map<SessionLabel, number>();
  const divergences: Divergence[] = [];

  const toolCall: ToolReplay['toolCall'] = (call, context) => {
    const session = label(context.session);
    const index = seen.get(session) ?? 0;
    seen.set(session, index + 1);
    const recordedCalls = tapes.get(session)?.toolCalls ?? [];
    const unused = recordedCalls.filter((candidate) => !used.has(candidate));
    const recorded =
      unused.find((candidate) => candidate.callId === call.callId && candidate.name === call.name) ??
      unused.find((candidate) => candidate.name === call.name);
    const actual = { name: call.name, arguments: call.arguments };
    if (recorded === undefined) {
      divergences.push({
        kind: 'call',
        session,
        index,
        actual,
        message: `${session}: tool call ${index + 1} ${call.name} has no recorded result`,
      });
      return {
        ok: false,
        error: {
          kind: 'execution',
          message: `agent replay: no recorded result for ${call.name} (call ${call.callId})`,
        },
      };
    }
    used.add(recorded);
    if (!isDeepStrictEqual(recorded.arguments, call.arguments)) {
      divergences.push({
        kind: 'call',
        session,
        index,
        expected: { name: recorded.name, arguments: recorded.arguments },
        actual,
        message: `${session}: tool call ${index + 1} ${call.name} has other arguments than recorded (the recorded result was returned)`,
      });
    }
    return toolResult(recorded.result);
  };

  return { toolCall, divergences };
}

/** A tape's result as the session gets it from a provider. */
export function toolResult(result: TapeToolResult): ToolResult {
  if (!result.ok) return { ok: false, error: { ...result.error } };
  return {
    ok: true,
    text: result.text,
    ...(result.isError === undefined ? {} : { isError: result.isError }),
    ...(result.structured === undefined ? {} : { structured: result.structured }),
  };
}
