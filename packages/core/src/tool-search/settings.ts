import {
  ConfigError,
  DEFAULT_TOOL_SEARCH_MAX_RESULTS,
  type ResolvedToolSearch,
  TOOL_SEARCH_MAX_RESULTS_LIMIT,
  type ToolSearchSettings,
} from '@agent/protocol';
import { isRecord } from '@agent/protocol/util';

const KEYS = ['after', 'alwaysOn', 'maxResults', 'native'] as const;
/** The largest `after`: beyond it a session would never search, and the index is sized for this many tools. */
export const TOOL_SEARCH_AFTER_LIMIT = 100_000;

const ALLOWED: Record<(typeof KEYS)[number], string> = {
  after: `a whole number from 0 to ${TOOL_SEARCH_AFTER_LIMIT} (tool search is on when the session has more tools; 0: always)`,
  alwaysOn: 'a list of tool-name globs (non-empty strings), e.g. ["github__*", "rest__status"]',
  maxResults: `a whole number from 1 to ${TOOL_SEARCH_MAX_RESULTS_LIMIT} (tools per search; default ${DEFAULT_TOOL_SEARCH_MAX_RESULTS})`,
  native:
    'true or false (let the provider load found tools: Claude Sonnet/Opus 4.5+, GPT-5.4+ on Responses; default false)',
};

function fieldOk(key: (typeof KEYS)[number], value: unknown): boolean {
  switch (key) {
    case 'after':
      return (
        Number.isInteger(value) && (value as number) >= 0 && (value as number) <= TOOL_SEARCH_AFTER_LIMIT
      );
    case 'alwaysOn':
      return (
        Array.isArray(value) && value.every((glob) => typeof glob === 'string' && glob.trim().length > 0)
      );
    case 'maxResults':
      return (
        Number.isInteger(value) &&
        (value as number) >= 1 &&
        (value as number) <= TOOL_SEARCH_MAX_RESULTS_LIMIT
      );
    case 'native':
      return typeof value === 'boolean';
  }
}

/**
 * Every problem with a `toolSearch` setting (`field` is `toolSearch` or `toolSearch.<key>`); empty
 * when it can work. Takes anything: an agent file's value as read, or a library caller's.
 */
export function toolSearchProblems(value: unknown, field = 'toolSearch'): ConfigError[] {
  if (value === undefined) return [];
  if (!isRecord(value)) {
    return [new ConfigError({ field, value, allowed: '{ after, alwaysOn?, maxResults?, native? }' })];
  }
  const problems: ConfigError[] = [];
  for (const key of Object.keys(value)) {
    if (!(KEYS as readonly string[]).includes(key)) {
      problems.push(
        new ConfigError({
          field: `${field}.${key}`,
          value: value[key],
          allowed: `one of the keys ${KEYS.join(', ')}`,
          message: `${field}.${key} is not a tool search setting (the keys are ${KEYS.join(', ')})`,
        }),
      );
    }
  }
  if (value.after === undefined) {
    problems.push(
      new ConfigError({
        field: `${field}.after`,
        value: undefined,
        allowed: ALLOWED.after,
        message: `${field}.after is required: ${ALLOWED.after}`,
      }),
    );
  }
  for (const key of KEYS) {
    if (value[key] !== undefined && !fieldOk(key, value[key])) {
      problems.push(new ConfigError({ field: `${field}.${key}`, value: value[key], allowed: ALLOWED[key] }));
    }
  }
  return problems;
}

/** The settings with every default filled in, or undefined when tool search is not asked for. Call after `toolSearchProblems`. */
export function resolveToolSearch(value: ToolSearchSettings | undefined): ResolvedToolSearch | undefined {
  if (value === undefined) return undefined;
  return {
    after: value.after,
    alwaysOn: value.alwaysOn ?? [],
    maxResults: value.maxResults ?? DEFAULT_TOOL_SEARCH_MAX_RESULTS,
    native: value.native ?? false,
  };
}
