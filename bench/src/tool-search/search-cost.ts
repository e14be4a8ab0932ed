// What a search costs a session, as the session sees it: `runAgent` with the catalog as one
// tool provider of N tools and tool search on, played by the in-process scripted model (no
// HTTP), which searches six times and then calls a found tool twice. The time from a model
// answer to the next request is the step's cost: the first search's includes building the
// index (built at a session's first search), the later ones only the query; the plain tool
// steps are the floor of any step.
import { performance } from 'node:perf_hooks';
import { runAgent } from '@agent/core';
import type { AgentEvent, ToolSearchRun } from '@agent/protocol';
import { TOOL_SEARCH_TOOL } from '@agent/protocol';
import { finalReport, type ScriptStep, scriptedModel, toolCall } from '@agent/testkit';
import { median } from '../harness/measure.js';
import { catalogOperations } from './catalog.js';
import { catalogTools } from './mcp-server.js';

/** Queries and the tool each one is for; all in the first 100 operations. */
export const SEARCHES: readonly { query: string; tool: string }[] = [
  { query: 'approve expense claim', tool: 'approve_expense_claim' },
  { query: 'export shipment tracking events csv', tool: 'export_tracking_events' },
  { query: 'restore an archived storage bucket', tool: 'restore_bucket' },
  { query: 'search support tickets by priority', tool: 'search_tickets' },
  { query: 'delete a user', tool: 'delete_user' },
  { query: 'list marketing campaigns', tool: 'list_campaigns' },
];
const PLAIN_CALLS = 2;

export interface SearchCost {
  tools: number;
  /** ms of the first search step (index build and query). */
  firstSearchMs: number;
  /** Median ms of the later search steps (query only). */
  searchMs: number;
  /** Median ms of a plain tool step (a found tool that answers at once). */
  plainStepMs: number;
  /** Searches whose tool was among the results. */
  found: number;
  searches: number;
  /** Tools the session hid behind the search. */
  deferred: number;
}

/** One session over `count` catalog tools; throws when it does not end with its report. */
export async function measureSearchCost(count: number): Promise<SearchCost> {
  const tools = catalogTools(catalogOperations(count));
  const stepStarts: number[] = [];
  const timed =
    (answer: ReturnType<typeof toolCall>): ScriptStep =>
    () => {
      stepStarts.push(performance.now());
      return answer;
    };
  const steps: ScriptStep[] = [
    ...SEARCHES.map(({ query }) => timed(toolCall(TOOL_SEARCH_TOOL, { query }))),
    ...Array.from({ length: PLAIN_CALLS }, () => timed(toolCall(SEARCHES[0]!.tool, {}))),
    timed(finalReport('searched')),
  ];
  const runs: ToolSearchRun[] = [];
  const result = await runAgent({
    models: [{ client: scriptedModel(steps) }],
    tools: [
      {
        id: 'catalog',
        listTools: async () =>
          tools.map(({ name, description, inputSchema }) => ({
            name,
            description: description ?? '',
            inputSchema,
          })),
        execute: async (call) => ({ ok: true, text: `${call.name} done` }),
      },
    ],
    prompt: 'Find the tools.',
    output: { format: 'text' },
    maxTurns: steps.length + 2,
    toolSearch: { after: 30 },
    onEvent: (event: AgentEvent) => {
      if (event.type === 'tool_search') runs.push(event.run);
    },
  });
  if (!result.success) throw new Error(`tool-search bench: the search-cost session failed: ${result.error}`);
  const gaps = stepStarts.slice(1).map((start, i) => start - stepStarts[i]!);
  return {
    tools: count,
    firstSearchMs: gaps[0]!,
    searchMs: median(gaps.slice(1, SEARCHES.length)),
    plainStepMs: median(gaps.slice(SEARCHES.length, SEARCHES.length + PLAIN_CALLS)),
    found: SEARCHES.filter((s, i) => runs[i]?.results.includes(s.tool)).length,
    searches: runs.length,
    deferred: runs[0]?.deferred ?? 0,
  };
}
