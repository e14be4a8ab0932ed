// The tool-search suite's tables and checks: the sessions side by side (tools offered, input
// tokens per request), what the scripted model found and called, and what a search costs.
import { TOOL_SEARCH_TOOL } from '@agent/protocol';
import { formatNumber, median } from '../harness/measure.js';
import type { BenchCheck, BenchTable } from '../harness/types.js';
import { TASKS, taskTool } from './script.js';
import type { SearchCost } from './search-cost.js';
import type { SessionFigures } from './session.js';

const int = (value: number): string => formatNumber(value, 0);
const mean = (values: readonly number[]): number =>
  values.reduce((sum, v) => sum + v, 0) / Math.max(values.length, 1);
const label = (s: SessionFigures): string =>
  `${s.toolset === 'openapi' ? 'OpenAPI' : 'MCP'}, ${s.search ? 'tool search' : 'all tools'}`;

export function requestsTable(sessions: readonly SessionFigures[], operations: number): BenchTable {
  return {
    caption: `Requests of one session per toolset (${operations} operations), with tool search and without`,
    columns: [
      'toolset, tools sent',
      'requests',
      'tool definitions offered (first / max)',
      'input tokens: first request',
      'mean',
      'max',
      'total',
    ],
    rows: sessions.map((s) => {
      const tokens = s.requests.map((r) => r.tokens);
      const offered = s.requests.map((r) => r.tools.length);
      return [
        label(s),
        s.requests.length,
        `${offered[0] ?? 0} / ${Math.max(0, ...offered)}`,
        int(tokens[0] ?? 0),
        int(mean(tokens)),
        int(Math.max(0, ...tokens)),
        int(tokens.reduce((sum, t) => sum + t, 0)),
      ];
    }),
  };
}

function searchCell(s: SessionFigures): string {
  const first = s.searches[0];
  if (!s.search) return 'no search (every tool offered)';
  if (first === undefined) return 'no search ran';
  return `"${first.query}": ${first.results.length} results, ${first.added.length} added, ${first.deferred} deferred`;
}

export function outcomeTable(sessions: readonly SessionFigures[]): BenchTable {
  return {
    caption:
      'Did the scripted model find and call the planted operation? (from the requests, the search events and the calls the API / MCP server ran)',
    columns: [
      'toolset, tools sent',
      'planted tool',
      'search',
      'its rank',
      'offered to the model',
      'calls run: right / other',
      'report',
    ],
    rows: sessions.map((s) => [
      label(s),
      `\`${taskTool(TASKS[s.toolset])}\``,
      searchCell(s),
      s.search ? (s.rank === undefined ? 'not found' : String(s.rank)) : 'n/a',
      s.offered ? 'yes' : 'no',
      `${s.rightCalls} / ${s.otherCalls}`,
      s.report,
    ]),
  };
}

export function costTable(costs: readonly SearchCost[][]): BenchTable {
  return {
    caption: `What a search costs a session (in-process model; medians of ${costs[0]?.length ?? 0} run${costs[0]?.length === 1 ? '' : 's'})`,
    columns: [
      'tools',
      'first search step: index build + query (ms)',
      'later search step: query (ms)',
      'plain tool step (ms)',
      'queries whose tool was found',
    ],
    rows: costs.map((runs) => [
      runs[0]!.tools,
      formatNumber(median(runs.map((r) => r.firstSearchMs))),
      formatNumber(median(runs.map((r) => r.searchMs)), 2),
      formatNumber(median(runs.map((r) => r.plainStepMs)), 2),
      `${Math.min(...runs.map((r) => r.found))} of ${runs[0]!.searches}`,
    ]),
  };
}

function sessionChecks(s: SessionFigures, operations: number): BenchCheck[] {
  const name = label(s);
  const tool = taskTool(TASKS[s.toolset]);
  const first = s.requests[0];
  const checks: BenchCheck[] = [
    {
      name: `${name}: the planted operation ran once with the task's arguments, nothing else ran, and the report says so`,
      ok: s.success && s.rightCalls === 1 && s.otherCalls === 0 && s.report.startsWith(`DONE with ${tool}`),
      detail: `right ${s.rightCalls}, other ${s.otherCalls}: ${s.report}`,
    },
  ];
  if (!s.search) {
    checks.push({
      name: `${name}: every one of the ${operations} tools is offered from the first request`,
      ok: first !== undefined && first.tools.length > operations && first.tools.includes(tool),
      detail: `${first?.tools.length ?? 0} offered`,
    });
    return checks;
  }
  checks.push(
    {
      name: `${name}: the first request offers tool_search and not the planted tool`,
      ok: first?.tools.includes(TOOL_SEARCH_TOOL) === true && !first.tools.includes(tool),
      detail: `${first?.tools.length ?? 0} offered: ${first?.tools.join(', ')}`,
    },
    {
      name: `${name}: one search found the planted tool and the next request offered it`,
      ok: s.searches.length === 1 && s.rank !== undefined && s.requests[1]?.tools.includes(tool) === true,
      detail: `searches ${s.searches.length}, rank ${s.rank ?? 'none'}`,
    },
  );
  return checks;
}

export function suiteChecks(
  sessions: readonly SessionFigures[],
  costs: readonly SearchCost[][],
  operations: number,
): BenchCheck[] {
  const checks = sessions.flatMap((s) => sessionChecks(s, operations));
  for (const toolset of ['openapi', 'mcp'] as const) {
    const all = sessions.find((s) => s.toolset === toolset && !s.search);
    const search = sessions.find((s) => s.toolset === toolset && s.search);
    if (all === undefined || search === undefined) continue;
    const ratio = mean(all.requests.map((r) => r.tokens)) / mean(search.requests.map((r) => r.tokens));
    checks.push({
      name: `${toolset}: tool search sends at most a fifth of the input tokens per request`,
      ok: ratio >= 5,
      detail: `mean per request ${formatNumber(ratio)}x fewer`,
    });
  }
  for (const runs of costs)
    checks.push({
      name: `${runs[0]!.tools} tools: every search found its tool`,
      ok: runs.every((r) => r.searches === r.found && r.found > 0),
      detail: runs.map((r) => `${r.found} of ${r.searches}`).join(', '),
    });
  return checks;
}
