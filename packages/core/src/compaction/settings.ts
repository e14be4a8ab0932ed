import {
  type CompactionSettings,
  ConfigError,
  DEFAULT_COMPACTION,
  type ResolvedCompaction,
} from '@agent/protocol';
import { isRecord } from '@agent/protocol/util';

const KEYS = ['at', 'keep', 'attempts', 'tokens'] as const;

/** What each key takes, as the error says it. */
const ALLOWED: Record<(typeof KEYS)[number], string> = {
  at: 'a number above 0 and below 1 (a fraction of the usable context window; default 0.8)',
  keep: 'a whole number from 1 to 100 (turns kept verbatim; default 2)',
  attempts: 'a whole number from 1 to 10 (summary calls per compaction; default 2)',
  tokens: 'a whole number from 256 to 32768 (the summary length limit in tokens; default 2048)',
};

function fieldOk(key: (typeof KEYS)[number], value: unknown): boolean {
  if (typeof value !== 'number' || !Number.isFinite(value)) return false;
  switch (key) {
    case 'at':
      return value > 0 && value < 1;
    case 'keep':
      return Number.isInteger(value) && value >= 1 && value <= 100;
    case 'attempts':
      return Number.isInteger(value) && value >= 1 && value <= 10;
    case 'tokens':
      return Number.isInteger(value) && value >= 256 && value <= 32768;
  }
}

/**
 * Every problem with a `compaction` setting (`field` is `compaction` or `compaction.<key>`); empty
 * when it can work. Takes anything: an agent file's value as read, or a library caller's.
 */
export function compactionProblems(value: unknown, field = 'compaction'): ConfigError[] {
  if (value === undefined || typeof value === 'boolean') return [];
  if (!isRecord(value)) {
    return [
      new ConfigError({
        field,
        value,
        allowed: `true, false, or { ${KEYS.join(', ')} } (each optional)`,
      }),
    ];
  }
  const problems: ConfigError[] = [];
  for (const key of Object.keys(value)) {
    if (!(KEYS as readonly string[]).includes(key)) {
      problems.push(
        new ConfigError({
          field: `${field}.${key}`,
          value: value[key],
          allowed: `one of the keys ${KEYS.join(', ')}`,
          message: `${field}.${key} is not a compaction setting`,
        }),
      );
    }
  }
  for (const key of KEYS) {
    if (value[key] !== undefined && !fieldOk(key, value[key])) {
      problems.push(new ConfigError({ field: `${field}.${key}`, value: value[key], allowed: ALLOWED[key] }));
    }
  }
  return problems;
}

/** The settings a session compacts with, or undefined when compaction is off. Call after `compactionProblems`. */
export function resolveCompaction(
  value: boolean | CompactionSettings | undefined,
): ResolvedCompaction | undefined {
  if (value === undefined || value === false) return undefined;
  if (value === true) return { ...DEFAULT_COMPACTION };
  return {
    at: value.at ?? DEFAULT_COMPACTION.at,
    keep: value.keep ?? DEFAULT_COMPACTION.keep,
    attempts: value.attempts ?? DEFAULT_COMPACTION.attempts,
    tokens: value.tokens ?? DEFAULT_COMPACTION.tokens,
  };
}
