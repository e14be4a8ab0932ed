import type { FsRoot } from './root.js';
import type { ToolArguments } from './tool-arguments.js';
import { findTool } from './tools/find-tool.js';
import { grepTool } from './tools/grep-tool.js';
import { listDirTool } from './tools/list-dir-tool.js';
import { readTool } from './tools/read-tool.js';

export const FS_TOOL_NAMES = ['Read', 'Grep', 'ListDir', 'Find'] as const;
export type FsToolName = (typeof FS_TOOL_NAMES)[number];

export interface FsToolDefinition {
  name: FsToolName;
  description: string;
  inputSchema: {
    type: 'object';
    properties: Record<string, object>;
    required?: string[];
    additionalProperties: false;
  };
  run: (root: FsRoot, args: ToolArguments, signal?: AbortSignal) => Promise<string>;
}

const path = (what: string) => ({
  type: 'string',
  description: `${what} Relative to the root; no "..", no absolute paths.`,
});

export const FS_TOOLS: readonly FsToolDefinition[] = [
  {
    name: 'Read',
    description:
      'Read a text file as numbered lines ("     1<TAB>text"), with a header giving the line range and total. ' +
      'Use offset/limit to page through large files; lines over 2000 characters are cut with a marker.',
    inputSchema: {
      type: 'object',
      properties: {
        path: path('File to read.'),
        offset: { type: 'integer', minimum: 1, description: 'First line to show, 1-based (default 1).' },
        limit: {
          type: 'integer',
          minimum: 1,
          maximum: 100000,
          description: 'Number of lines to show (default 2000).',
        },
      },
      required: ['path'],
      additionalProperties: false,
    },
    run: readTool,
  },
  {
    name: 'Grep',
    description:
      'Search files for lines matching a regular expression (JavaScript syntax, run on RE2: no backreferences ' +
      'or lookaround). Output: "file:line:text" per match ' +
      '(context lines as "file-line-text", groups separated by "--"), or "file:count" with count=true. ' +
      'path may be a file, a directory (searched recursively) or a glob such as "logs/**/*.txt".',
    inputSchema: {
      type: 'object',
      properties: {
        pattern: {
          type: 'string',
          description:
            'Regular expression (no slashes), matched per line: ^ and $ match at its start and end. JavaScript syntax except backreferences (\\1) and lookaround ((?=, (?!, (?<=, (?<!).',
        },
        path: path('File, directory or glob to search (default "." = the whole root).'),
        glob: { type: 'string', description: 'Only search files whose path matches this glob, e.g. "*.md".' },
        context: {
          type: 'integer',
          minimum: 0,
          maximum: 50,
          description: 'Lines of context before and after each match.',
        },
        maxMatches: {
          type: 'integer',
          minimum: 1,
          maximum: 100000,
          description: 'Stop after this many matching lines (default 100).',
        },
        ignoreCase: { type: 'boolean', description: 'Case-insensitive matching.' },
        count: { type: 'boolean', description: 'Only count matching lines per file.' },
      },
      required: ['pattern'],
      additionalProperties: false,
    },
    run: grepTool,
  },
  {
    name: 'ListDir',
    description:
      'List one directory: subdirectories end with "/", files show their size, links are marked with "@".',
    inputSchema: {
      type: 'object',
      properties: {
        path: path('Directory to list (default "." = the root).'),
        maxEntries: {
          type: 'integer',
          minimum: 1,
          maximum: 10000,
          description: 'Most entries to show (default 1000).',
        },
      },
      additionalProperties: false,
    },
    run: listDirTool,
  },
  {
    name: 'Find',
    description:
      'Find files and directories whose path (relative to "path") matches a glob such as "**/*.json"; ' +
      'a glob without "/" matches names at any depth. Directories end with "/".',
    inputSchema: {
      type: 'object',
      properties: {
        pattern: { type: 'string', description: 'Glob to match, e.g. "*.ts" or "src/**/test-*.js".' },
        path: path('Directory to search from (default "." = the root).'),
        type: { type: 'string', enum: ['file', 'dir', 'any'], description: 'What to list (default any).' },
        maxResults: {
          type: 'integer',
          minimum: 1,
          maximum: 10000,
          description: 'Most paths to list (default 500).',
        },
      },
      required: ['pattern'],
      additionalProperties: false,
    },
    run: findTool,
  },
];
