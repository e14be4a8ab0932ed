import { compactionProblems, toolSearchProblems } from '@agent/core';
import type { ConfigError } from '@agent/protocol';
import { type Problem, problem } from '../errors.js';

/** Where settings sit in their document, for the problems' names and lines. */
export interface SettingsPlace {
  file: string;
  /** The path of the object holding the settings: `[]` for an agent file, `['defaults']` in agent.json. */
  base: readonly string[];
  lineOf?: (path: (string | number)[]) => number | undefined;
}

/**
 * The problems of the settings whose bounds the core checks (`compaction`, `toolSearch`), in an
 * agent file, the config's `defaults` or `--override`, by the core's own checks so a load finds
 * what a session would. Each problem names the file, the key (`toolSearch.after`) and its line when known.
 */
export function coreSettingProblems(
  settings: { compaction?: unknown; toolSearch?: unknown } | undefined,
  at: SettingsPlace,
): Problem[] {
  return [
    ...located(compactionProblems(settings?.compaction, 'compaction'), 'compaction', at),
    ...located(toolSearchProblems(settings?.toolSearch, 'toolSearch'), 'toolSearch', at),
  ];
}

function located(errors: readonly ConfigError[], key: string, at: SettingsPlace): Problem[] {
  return errors.map((error) => {
    const path = [...at.base, ...error.field.split('.')];
    const line = at.lineOf?.(path) ?? at.lineOf?.([...at.base, key]);
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
