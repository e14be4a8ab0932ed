import { compactionProblems } from '@agent/core';
import { type Problem, problem } from '../errors.js';

/**
 * The problems of a `compaction` setting (an agent file's key, the config's `defaults.compaction`,
 * `--override compaction=...`), by the core's own check so a load finds what a session would.
 * `base` is where the setting sits in its document (`['compaction']`, `['defaults', 'compaction']`);
 * each problem names the file, the key (`compaction.at`) and its line when known.
 */
export function compactionSettingProblems(
  value: unknown,
  at: {
    file: string;
    base: readonly string[];
    lineOf?: (path: (string | number)[]) => number | undefined;
  },
): Problem[] {
  const prefix = at.base.slice(0, -1);
  return compactionProblems(value, at.base.at(-1) ?? 'compaction').map((error) => {
    const path = [...prefix, ...error.field.split('.')];
    const line = at.lineOf?.(path) ?? at.lineOf?.([...at.base]);
    const label = path.join('.');
    const message = error.message.startsWith(error.field)
      ? `\`${label}\`${error.message.slice(error.field.length)}`
      : error.message;
    return problem('configuration', at.file, line, message, {
      field: label,
      value: error.value,
      allowed: error.allowed,
    });
  });
}
