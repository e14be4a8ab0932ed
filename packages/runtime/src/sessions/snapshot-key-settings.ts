import { resolve } from 'node:path';
import type { SnapshotKeySettings } from '@agent/cache';
import type { ResolveOptions } from '../api.js';
import { resolveConfig, unusableValueError } from '../config/layers.js';

/**
 * The snapshot keys of the config in effect (`sessions.snapshotKey`, `previousSnapshotKeys` of
 * the highest layer with a `sessions` section), for an app that opens a session store itself
 * (a queue fleet's Redis store); `undefined` when that section sets neither. `source` names the
 * file for messages. The keys are secrets: never print them. Throws the config's error.
 */
export function snapshotKeySettings(
  options: ResolveOptions & { agentFile?: string } = {},
): SnapshotKeySettings | undefined {
  const cwd = resolve(options.cwd ?? process.cwd());
  const agentDir = options.agentFile === undefined ? undefined : resolve(cwd, options.agentFile, '..');
  const sessions = resolveConfig({ ...options, cwd }, agentDir).sessions;
  if (sessions === undefined) return undefined;
  const { snapshotKey, previousSnapshotKeys } = sessions.value;
  if (snapshotKey === undefined && previousSnapshotKeys === undefined) return undefined;
  const unusable = unusableValueError({ snapshotKey, previousSnapshotKeys });
  if (unusable !== undefined) throw unusable;
  return {
    ...(snapshotKey === undefined ? {} : { snapshotKey }),
    ...(previousSnapshotKeys === undefined ? {} : { previousSnapshotKeys }),
    source: `sessions.snapshotKey of ${sessions.origin.file}`,
  };
}
