import type { SessionSnapshot, ToolOutputHook } from '@agent/protocol';
import { errorMessage } from '@agent/protocol/util';
import type { SessionRecorder } from '../observe/recorder.js';

/** The hook's stored outputs for snapshots, when it can save them. */
export function savedOutputsOf(hook: ToolOutputHook | undefined) {
  const save = hook?.saveOutputs;
  return save === undefined ? undefined : () => save.call(hook);
}

/**
 * A resumed session's stored tool outputs go back under their handles before its first turn, so
 * the handles its conversation names still read. A hook that fails is a `WRN` line: the session
 * goes on, and those handles answer as unknown.
 */
export async function restoreToolOutputs(
  hook: ToolOutputHook | undefined,
  resumeFrom: SessionSnapshot | undefined,
  recorder: SessionRecorder,
): Promise<void> {
  const outputs = resumeFrom?.toolOutputs;
  if (outputs === undefined || outputs.length === 0 || hook?.restoreOutputs === undefined) return;
  try {
    await hook.restoreOutputs(Array.isArray(outputs) ? outputs : []);
  } catch (error) {
    recorder.log({
      severity: 'WRN',
      direction: 'response',
      type: 'tool',
      remoteIdentifier: 'agent:tool-output',
      message: `the stored tool outputs of the snapshot could not be restored: ${errorMessage(error)}`,
    });
  }
}
