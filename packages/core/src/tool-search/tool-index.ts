import type { JsonSchema, ToolDefinition } from '@agent/protocol';
import type MiniSearchType from 'minisearch';

// A BM25 index (minisearch's BM25+) over a session's tools: each tool's name split into words
// (boosted), its description, and its parameters' names and descriptions. Every input is bounded,
// so neither the build nor a search holds the event loop for long:
// - a query is at most MAX_QUERY_CHARS characters and MAX_QUERY_TERMS terms;
// - each tool adds at most MAX_DESCRIPTION_CHARS of description and MAX_PARAMETER_CHARS of
//   parameter text (schemas walked MAX_SCHEMA_DEPTH deep);
// - the tools are added INDEX_CHUNK at a time, the event loop running between chunks.

export const MAX_QUERY_CHARS = 500;
export const MAX_QUERY_TERMS = 32;
export const MAX_DESCRIPTION_CHARS = 1_000;
export const MAX_PARAMETER_CHARS = 2_000;
const MAX_SCHEMA_DEPTH = 3;
const INDEX_CHUNK = 250;
const NAME_BOOST = 3;

/** Words that say nothing about which tool is meant. */
const STOP_WORDS: ReadonlySet<string> = new Set(
  'a an and are as at be by for from how i in is it me my of on or that the this to tool tools use using want with'.split(
    ' ',
  ),
);

interface IndexedTool {
  id: number;
  name: string;
  description: string;
  params: string;
}

/** `createIssue`, `github__create_issue`, `get-user` → space-separated words. */
export function nameWords(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/[_\-.:/]+/g, ' ')
    .trim();
}

/** Parameter names (split into words) and descriptions, depth-first, cut at `MAX_PARAMETER_CHARS`. */
export function parameterText(schema: JsonSchema | undefined): string {
  const parts: string[] = [];
  let size = 0;
  const walk = (node: unknown, depth: number): void => {
    if (depth > MAX_SCHEMA_DEPTH || size >= MAX_PARAMETER_CHARS || typeof node !== 'object' || node === null)
      return;
    const record = node as Record<string, unknown>;
    const properties = record.properties;
    if (typeof properties === 'object' && properties !== null) {
      for (const [key, value] of Object.entries(properties as Record<string, unknown>)) {
        if (size >= MAX_PARAMETER_CHARS) return;
        const description =
          typeof value === 'object' && value !== null && typeof (value as JsonSchema).description === 'string'
            ? (value as JsonSchema).description
            : '';
        const text = `${nameWords(key)} ${description ?? ''}`.trim();
        parts.push(text);
        size += text.length + 1;
        walk(value, depth + 1);
      }
    }
    if (typeof record.items === 'object') walk(record.items, depth + 1);
  };
  walk(schema, 0);
  return parts.join(' ').slice(0, MAX_PARAMETER_CHARS);
}

function processTerm(term: string): string | null {
  const lower = term.toLowerCase();
  return STOP_WORDS.has(lower) ? null : lower;
}

/** The search index of a session's tools (built once, at the session's first search). */
export class ToolIndex {
  private constructor(
    private readonly search: MiniSearchType<IndexedTool>,
    private readonly tools: readonly ToolDefinition[],
  ) {}

  /** Indexes `tools`, `INDEX_CHUNK` at a time; minisearch is loaded here, by the first session that searches. */
  static async build(tools: readonly ToolDefinition[]): Promise<ToolIndex> {
    const { default: MiniSearch } = await import('minisearch');
    const search = new MiniSearch<IndexedTool>({
      fields: ['name', 'description', 'params'],
      storeFields: [],
      processTerm,
      searchOptions: {
        boost: { name: NAME_BOOST },
        prefix: (term) => term.length >= 3,
        fuzzy: (term) => (term.length >= 5 ? 0.2 : false),
        maxFuzzy: 2,
        // A long query is cut to its first terms: the search stays bounded whatever the model sends.
        tokenize: (text) => MiniSearch.getDefault('tokenize')(nameWords(text)).slice(0, MAX_QUERY_TERMS),
      },
    });
    const documents = tools.map(
      (tool, id): IndexedTool => ({
        id,
        name: nameWords(tool.name),
        description: tool.description.slice(0, MAX_DESCRIPTION_CHARS),
        params: parameterText(tool.inputSchema),
      }),
    );
    await search.addAllAsync(documents, { chunkSize: INDEX_CHUNK });
    return new ToolIndex(search, tools);
  }

  /** The names of the best matching tools, best first. */
  find(query: string, limit: number): string[] {
    const hits = this.search.search(query.slice(0, MAX_QUERY_CHARS));
    return hits.slice(0, limit).map((hit) => this.tools[hit.id as number]!.name);
  }
}

/** The first line of a description, cut to `max` characters: what a search result shows. */
export function oneLine(description: string, max = 160): string {
  const line = description.trim().split('\n', 1)[0]?.trim() ?? '';
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}
