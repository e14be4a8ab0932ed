// One session of the tool-search suite: the planted task of a toolset through `createAgentRunner`,
// with tool search or without, and what happened, read from every side: the requests the model
// server received (tools offered, o200k tokens), the runtime's `tool_search` events, and the
// calls the company API or the MCP server actually ran.

import { performance } from 'node:perf_hooks';
import { isDeepStrictEqual } from 'node:util';
import type { AgentEvent, ToolSearchRun } from '@agent/protocol';
import { createAgentRunner } from '@agent/runtime';
import { catalogOperations } from './catalog.js';
import { type PlantedTask, TASKS, type Toolset, taskTool } from './script.js';
import type { RequestFigures, Workspace } from './workspace.js';

export interface SessionFigures {
  toolset: Toolset;
  search: boolean;
  success: boolean;
  /** The report's first line, or the error. */
  report: string;
  requests: RequestFigures[];
  searches: ToolSearchRun[];
  /** 1-based rank of the planted tool in the first search's results (absent: not among them, or no search). */
  rank?: number;
  /** The planted tool was among the tools of a request (after the search, with search on). */
  offered: boolean;
  /** Calls of the planted operation the API or MCP server ran with the task's arguments. */
  rightCalls: number;
  /** Calls it ran of anything else. */
  otherCalls: number;
  wallMs: number;
}

/** The HTTP call the task's operation makes: its method and path with the arguments filled in. */
function expectedHit(task: PlantedTask, operations: number): { method: string; path: string } {
  const operation = catalogOperations(operations).find((o) => o.id === task.operation);
  if (operation === undefined)
    throw new Error(`tool-search bench: no operation ${task.operation} in the catalog`);
  const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => String(task.arguments[name]));
  return { method: operation.method, path };
}

function callsOf(
  workspace: Workspace,
  task: PlantedTask,
  operations: number,
  since: { hits: number; calls: number },
) {
  if (task.toolset === 'openapi') {
    const want = expectedHit(task, operations);
    const hits = workspace.apiHits.slice(since.hits);
    const right = hits.filter((h) => h.method === want.method && h.path === want.path);
    return { right: right.length, other: hits.length - right.length };
  }
  const calls = workspace.mcpCalls().slice(since.calls);
  const right = calls.filter(
    (c) => c.name === task.operation && isDeepStrictEqual(c.arguments, task.arguments),
  );
  return { right: right.length, other: calls.length - right.length };
}

export async function runSession(
  workspace: Workspace,
  operations: number,
  toolset: Toolset,
  search: boolean,
): Promise<SessionFigures> {
  const task = TASKS[toolset];
  const tool = taskTool(task);
  const runner = await createAgentRunner(workspace.agentFile(toolset, search), { ...workspace.resolve });
  const since = {
    requests: workspace.requests.length,
    hits: workspace.apiHits.length,
    calls: workspace.mcpCalls().length,
  };
  const searches: ToolSearchRun[] = [];
  const onEvent = (event: AgentEvent): void => {
    if (event.type === 'tool_search') searches.push(event.run);
  };
  try {
    const started = performance.now();
    const result = await runner.run(task.prompt, { onEvent });
    const wallMs = performance.now() - started;
    const requests = workspace.requests.slice(since.requests);
    const at = searches[0]?.results.indexOf(tool) ?? -1;
    const calls = callsOf(workspace, task, operations, since);
    return {
      toolset,
      search,
      success: result.success,
      report: (result.success ? String(result.finalReport.content ?? '') : result.error)
        .split('\n')[0]!
        .slice(0, 160),
      requests,
      searches,
      ...(at === -1 ? {} : { rank: at + 1 }),
      offered: requests.some((r) => r.tools.includes(tool)),
      rightCalls: calls.right,
      otherCalls: calls.other,
      wallMs,
    };
  } finally {
    await runner.close();
  }
}
