import type { ModelTarget } from '@agent/protocol';
import type { InternalToolsConfig } from '../config.js';

/** Which of the session's own tools it answers, and which it offers the model. */
export interface InternalToolChoice {
  /** `agent__task_status` calls are answered (also when it is not offered: a model may still send one). */
  taskStatus: boolean;
  /** `agent__task_status` is in the tool list the model sees. */
  offerTaskStatus: boolean;
  /** `agent__batch` calls are answered (also when it is not offered: a model may still send one). */
  batch: boolean;
  /** `agent__batch` is in the tool list the model sees. */
  offerBatch: boolean;
}

/**
 * Resolves `internalTools`. Each tool is offered only when it is useful, since its schema goes
 * with every request (issue 20). `false` turns both off; `true`, absent or an object offers
 * `agent__task_status` (the seeds' progress channel) per `taskStatus`: `'auto'` (the default)
 * only when the run has an event listener, the one way its progress reaches anyone; and
 * `agent__batch` per `batch`: `'auto'` (the default) only when some model of the session does
 * not make parallel tool calls natively (or does not say), since such a model has no other
 * way to run calls in parallel. A tool that is not turned off is answered even when not offered.
 */
export function internalToolChoice(
  setting: boolean | InternalToolsConfig | undefined,
  targets: readonly ModelTarget[],
  hasListener: boolean,
): InternalToolChoice {
  if (setting === false)
    return { taskStatus: false, offerTaskStatus: false, batch: false, offerBatch: false };
  const config = setting === true || setting === undefined ? {} : setting;
  const taskStatus = config.taskStatus ?? 'auto';
  const batch = config.batch ?? 'auto';
  const offerBatch =
    batch === 'auto' ? targets.some((target) => target.client.parallelToolCalls !== true) : batch;
  return {
    taskStatus: taskStatus !== false,
    offerTaskStatus: taskStatus === 'auto' ? hasListener : taskStatus,
    batch: batch !== false,
    offerBatch,
  };
}

/** What is wrong with an `internalTools` setting, if anything. */
export function internalToolsProblem(setting: unknown): string | undefined {
  if (setting === undefined || typeof setting === 'boolean') return undefined;
  const allowed = "true, false or { taskStatus?: boolean | 'auto', batch?: boolean | 'auto' }";
  if (typeof setting !== 'object' || setting === null || Array.isArray(setting)) return allowed;
  const { taskStatus, batch, ...rest } = setting as Record<string, unknown>;
  if (Object.keys(rest).length > 0) return `${allowed} (unknown key ${Object.keys(rest)[0]})`;
  if (taskStatus !== undefined && typeof taskStatus !== 'boolean' && taskStatus !== 'auto')
    return `${allowed} (taskStatus: true, false or 'auto')`;
  if (batch !== undefined && typeof batch !== 'boolean' && batch !== 'auto')
    return `${allowed} (batch: true, false or 'auto')`;
  return undefined;
}

/**
 * The setting as the settings hash reads it: `true` for the defaults and `false` for none (the
 * values of the boolean form, so snapshots taken with either keep their hash), else its parts.
 * `taskStatus` `true` and `'auto'` read alike: both answer the tool, and whether `'auto'` offers
 * it depends on the run (its listener), not on the agent the hash stands for.
 */
export function internalToolsKey(setting: boolean | InternalToolsConfig | undefined): boolean | string {
  if (setting === false) return false;
  const config = setting === true || setting === undefined ? {} : setting;
  const taskStatus = config.taskStatus !== false;
  const batch = config.batch ?? 'auto';
  if (taskStatus && batch === 'auto') return true;
  if (!taskStatus && batch === false) return false;
  return `taskStatus=${taskStatus},batch=${batch}`;
}
