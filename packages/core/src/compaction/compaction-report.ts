import type { CompactionRun, OpNode } from '@agent/protocol';
import type { OpTreeBuilder } from '../observe/op-tree.js';
import type { SessionRecorder } from '../observe/recorder.js';

/** The log line's remote identifier. */
export const COMPACTION_LOG = 'agent:compaction';

/**
 * Tells a compaction: its op node closed with the run, the `compaction` event, and the log
 * line (VRB when compacted, with before/after tokens and the handle; WRN when it failed).
 */
export function reportCompaction(
  parts: { recorder: SessionRecorder; opTree: OpTreeBuilder },
  node: OpNode,
  run: CompactionRun,
): void {
  const { recorder, opTree } = parts;
  node.compaction = run;
  opTree.end(node, run.outcome === 'compacted' ? 'ok' : 'failed', undefined, run.error);
  if (recorder.watched) recorder.emit({ type: 'compaction', run });
  const turns = `turns ${run.fromTurn}–${run.toTurn} (${run.messages} messages)`;
  recorder.log({
    severity: run.outcome === 'compacted' ? 'VRB' : 'WRN',
    direction: 'response',
    type: 'llm',
    remoteIdentifier: COMPACTION_LOG,
    message:
      run.outcome === 'compacted'
        ? `compaction ${run.index}: ${turns} replaced by a summary, ${run.beforeTokens} -> ${run.afterTokens} tokens (limit ${run.limitTokens}), stored behind handle ${run.handle}`
        : `compaction ${run.index} of ${turns} failed: ${run.error}; compaction is off for the rest of the session`,
    details: {
      outcome: run.outcome,
      before_tokens: run.beforeTokens,
      after_tokens: run.afterTokens,
      limit_tokens: run.limitTokens,
      calls: run.calls,
      ...(run.handle === undefined ? {} : { handle: run.handle }),
    },
  });
}
