import type { CompactionRun } from '@agent/protocol';
import { fmtMs, fmtTokens } from './format.js';

/**
 * A compaction as one line of the tree: what it replaced and the tokens before and after, with
 * the handle `tool_output` expands; or why it failed, and whether compaction is now off.
 */
export function compactionLine(run: CompactionRun): string {
  const calls = `${run.calls} summary call${run.calls === 1 ? '' : 's'}`;
  if (run.outcome === 'failed') {
    const off = run.exhausted === true ? '; compaction is off for the rest of the session' : '';
    return `failed after ${calls} (${fmtMs(run.durationMs)}): ${run.error ?? 'no reason given'}${off}`;
  }
  const saved = run.beforeTokens - run.afterTokens;
  return (
    `turns ${run.fromTurn}–${run.toTurn} (${run.messages} messages) → summary: ` +
    `${fmtTokens(run.beforeTokens)} → ${fmtTokens(run.afterTokens)} tokens (${fmtTokens(saved)} saved, ` +
    `limit ${fmtTokens(run.limitTokens)}), ${calls}; transcript behind handle ${run.handle ?? '?'}`
  );
}
