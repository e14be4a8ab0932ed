import { AgentError, type ToolDefinition, type ToolProvider, type ToolResult } from '@agent/protocol';
import { compileSearchPattern, type SearchPattern } from '@agent/schema';
import type { StoredOutput } from './handles.js';
import type { ToolOutputStore } from './store.js';

// The read-grep child's own Read and Grep, used when no filesystem server is configured
// (`createReadGrepTools`): @agent/core alone can then run read-grep. A "path" is a handle of
// the store and nothing else, so no path ever reaches the filesystem.

/** Provider id (accounting `mcpServer`) of the built-in tools. */
export const STORE_TOOLS_ID = 'tool-output-store';
const DEFAULT_READ_LINES = 2000;
const MAX_READ_LINES = 10_000;
const DEFAULT_MATCHES = 100;
const MAX_MATCHES = 1000;
/** Lines are cut to this many characters, for the answer and for matching (bounds a pattern's work). */
const MAX_LINE_CHARS = 2000;
/** Bound of one answer, characters. */
const MAX_ANSWER_CHARS = 200_000;

const handlePath = {
  type: 'string',
  description: 'The handle (the filename), exactly as given.',
} as const;

const DEFINITIONS: readonly ToolDefinition[] = [
  {
    name: 'Read',
    description:
      'Read the stored output as numbered lines ("     1<TAB>text"). Use offset/limit to page; lines over 2000 characters are cut.',
    inputSchema: {
      type: 'object',
      properties: {
        path: handlePath,
        offset: { type: 'integer', minimum: 1, description: 'First line to show, 1-based (default 1).' },
        limit: {
          type: 'integer',
          minimum: 1,
          maximum: MAX_READ_LINES,
          description: 'Lines to show (default 2000).',
        },
      },
      required: ['path'],
      additionalProperties: false,
    },
  },
  {
    name: 'Grep',
    description:
      'Search the stored output for lines matching a regular expression (JavaScript syntax, run on RE2: no backreferences or lookaround). Output: "file:line:text" per match.',
    inputSchema: {
      type: 'object',
      properties: {
        pattern: {
          type: 'string',
          description:
            'Regular expression (no slashes), matched per line: ^ and $ match at its start and end. JavaScript syntax except backreferences (\\1) and lookaround ((?=, (?!, (?<=, (?<!).',
        },
        path: handlePath,
        maxMatches: {
          type: 'integer',
          minimum: 1,
          maximum: MAX_MATCHES,
          description: 'Stop after this many matching lines (default 100).',
        },
        ignoreCase: { type: 'boolean', description: 'Case-insensitive matching.' },
      },
      required: ['pattern'],
      additionalProperties: false,
    },
  },
];

class ToolInputError extends Error {}

function integer(value: unknown, name: string, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || (value as number) < 1 || (value as number) > max) {
    throw new ToolInputError(`"${name}" must be an integer from 1 to ${max}`);
  }
  return value as number;
}

/** The record a `path` names: a handle of the store (a leading "./" allowed), else an error. */
function recordOf(store: ToolOutputStore, path: unknown): StoredOutput {
  const given = path === undefined && store.handles.size === 1 ? store.handles.list()[0]?.handle : path;
  const name = typeof given === 'string' && given.startsWith('./') ? given.slice(2) : given;
  const record = store.lookup(name);
  if (record !== undefined) return record;
  const files = store.handles
    .list()
    .map((r) => r.handle)
    .join(', ');
  throw new ToolInputError(`${JSON.stringify(path)} is not a file here; the files are: ${files}`);
}

/** Calls `each(line, number)` for every line of the stored output until it returns false. */
async function eachLine(
  store: ToolOutputStore,
  record: StoredOutput,
  signal: AbortSignal,
  each: (line: string, number: number) => boolean,
): Promise<void> {
  const file = await store.open(record);
  try {
    let number = 0;
    for await (const line of file.readLines({ encoding: 'utf8' })) {
      signal.throwIfAborted();
      number++;
      if (
        !each(line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}... [line cut]` : line, number)
      )
        break;
    }
  } finally {
    await file.close();
  }
}

async function read(store: ToolOutputStore, args: Record<string, unknown>, signal: AbortSignal) {
  const record = recordOf(store, args.path);
  const offset = integer(args.offset, 'offset', 1, Number.MAX_SAFE_INTEGER);
  const limit = integer(args.limit, 'limit', DEFAULT_READ_LINES, MAX_READ_LINES);
  const shown: string[] = [];
  let chars = 0;
  await eachLine(store, record, signal, (line, number) => {
    if (number < offset) return true;
    const text = `${String(number).padStart(6)}\t${line}`;
    chars += text.length + 1;
    if (shown.length >= limit || chars > MAX_ANSWER_CHARS) return false;
    shown.push(text);
    return true;
  });
  const last = offset + shown.length - 1;
  const header =
    shown.length === 0
      ? `[${record.handle}: no lines from ${offset}; the file has ${record.lines} lines]`
      : `[${record.handle}: lines ${offset}-${last} of ${record.lines}]`;
  return [header, ...shown].join('\n');
}

async function grep(store: ToolOutputStore, args: Record<string, unknown>, signal: AbortSignal) {
  if (typeof args.pattern !== 'string' || args.pattern.length === 0)
    throw new ToolInputError('"pattern" must be a non-empty regular expression');
  const record = recordOf(store, args.path);
  const max = integer(args.maxMatches, 'maxMatches', DEFAULT_MATCHES, MAX_MATCHES);
  let matcher: SearchPattern;
  try {
    matcher = compileSearchPattern(args.pattern, { ignoreCase: args.ignoreCase === true });
  } catch (error) {
    if (AgentError.is(error, 'search_pattern_unsupported')) throw new ToolInputError(error.message);
    throw error;
  }
  const matches: string[] = [];
  await eachLine(store, record, signal, (line, number) => {
    if (matcher.test(line)) matches.push(`${record.handle}:${number}:${line}`);
    return matches.length < max;
  });
  if (matches.length === 0) return `No lines of ${record.handle} match ${JSON.stringify(args.pattern)}.`;
  const more =
    matches.length === max ? `\n[stopped at ${max} matches: raise maxMatches or narrow the pattern]` : '';
  return `${matches.join('\n')}${more}`;
}

/** `Read` and `Grep` over the stored outputs of `store`, for the read-grep child. */
export function storeReadGrepTools(store: ToolOutputStore): ToolProvider {
  return {
    id: STORE_TOOLS_ID,
    kind: STORE_TOOLS_ID,
    listTools: async () => DEFINITIONS,
    async execute(call, options): Promise<ToolResult> {
      const run = call.name === 'Read' ? read : call.name === 'Grep' ? grep : undefined;
      if (run === undefined)
        return { ok: false, error: { kind: 'unknown_tool', message: 'only Read and Grep can be used here' } };
      try {
        return { ok: true, text: await run(store, call.arguments, options.signal) };
      } catch (error) {
        if (error instanceof ToolInputError)
          return { ok: false, error: { kind: 'invalid_arguments', message: error.message } };
        if (options.signal.aborted) return { ok: false, error: { kind: 'aborted', message: 'cancelled' } };
        const code = (error as NodeJS.ErrnoException).code ?? 'error';
        return {
          ok: false,
          error: { kind: 'execution', message: `reading the stored output failed (${code})` },
        };
      }
    },
  };
}
