// Issue 41's acceptance for tool search: toolsets of 1,000 tools (a generated OpenAPI document
// and a generated MCP server) through the runtime with tool search and without: tools offered
// and input tokens per request, whether the scripted model found and called the right tool,
// and what a search costs at 1,000 and 10,000 tools.
import type { BenchSuite, SuiteResult } from '../harness/types.js';
import { measureSearchCost, SEARCHES } from '../tool-search/search-cost.js';
import { runSession, type SessionFigures } from '../tool-search/session.js';
import { costTable, outcomeTable, requestsTable, suiteChecks } from '../tool-search/tables.js';
import { openWorkspace, SEARCH_AFTER } from '../tool-search/workspace.js';

const FULL = { operations: 1000, costSizes: [1000, 10_000], costRuns: 3 };
const QUICK = { operations: 100, costSizes: [100], costRuns: 1 };

const NOTES = (operations: number) => [
  `The catalog: ${operations} operations of a made-up company's ten services (billing, inventory, shipping, ..., storage), ten actions (list, get, create, update, delete, search, archive, restore, export, approve) on each service's resources, with summaries and parameters as a real API has them (\`approveExpenseClaim\`: "Approve a pending expense claim; its owner is notified.", \`expenseClaimId\`, \`note\`); past 1,000 the same per region (\`euApproveExpenseClaim\`). The same operations are an OpenAPI 3.1 document (\`openapiSpecs\`, served by a loopback API of the bench's own) and an MCP server of one tool per operation (a low-level \`Server\` of \`@modelcontextprotocol/sdk\`, a stdio \`mcpServers\` entry the runtime starts as a child process).`,
  `Sessions run an agent file through \`createAgentRunner\` against the testkit model server over HTTP in strict mode (\`@agent/providers\`' OpenAI client). The server counts each request's o200k tokens (messages, tool calls and tool definitions: the compaction suite's \`chatRequestTokens\`) and reports them as the call's input tokens. \`toolSearch: { after: ${SEARCH_AFTER} }\` in the agent file of the "tool search" sessions.`,
  "The scripted model reads each request: while the planted operation's tool is not offered it calls `tool_search` once with a query in words; once the tool is offered it calls it with the task's arguments; once its result is in, it reports. \"found and called\" is read from what happened: the search event's results, the tools of the next request, and the calls the company API or the MCP server actually ran (method and path, or name and arguments).",
  `Search cost: \`runAgent\` with one tool provider of N catalog tools and \`toolSearch\`, the in-process scripted model searching ${SEARCHES.length} times, then calling a found tool twice; a step is the time from the model's answer to its next request. The index is built at a session's first search.`,
  'Command: `cd bench && node --import tsx src/run.ts --only tool-search` (`pnpm bench --only tool-search`; build the packages first).',
];

export const toolSearchSuite: BenchSuite = {
  id: 'tool-search',
  title: 'Tool search: toolsets of 1,000 tools, with it and without',
  description:
    'A generated catalog of 1,000 operations as an OpenAPI document and as a stdio MCP server, each behind an agent file run through `createAgentRunner` against the testkit model server over HTTP, with `toolSearch` and without: tool definitions offered and o200k input tokens per request (first, mean, max), whether the scripted model found the planted operation with `tool_search` and the API / MCP server ran it, and the cost of a search step (index build, query) at 1,000 and 10,000 tools. Quick: 100 tools.',
  async run({ quick }): Promise<SuiteResult> {
    const plan = quick ? QUICK : FULL;
    const workspace = await openWorkspace(plan.operations);
    const sessions: SessionFigures[] = [];
    try {
      for (const toolset of ['openapi', 'mcp'] as const)
        for (const search of [false, true])
          sessions.push(await runSession(workspace, plan.operations, toolset, search));
    } finally {
      await workspace.close();
    }
    // Unmeasured: loads the search code and warms the JIT, which no measured session should pay.
    await measureSearchCost(100);
    const costs = [];
    for (const size of plan.costSizes) {
      const runs = [];
      for (let i = 0; i < plan.costRuns; i++) runs.push(await measureSearchCost(size));
      costs.push(runs);
    }
    return {
      tables: [requestsTable(sessions, plan.operations), outcomeTable(sessions), costTable(costs)],
      notes: NOTES(plan.operations),
      checks: suiteChecks(sessions, costs, plan.operations),
      // Tool names only for the short lists: a request of every tool would list 1,000 names.
      raw: {
        operations: plan.operations,
        sessions: sessions.map((s) => ({
          ...s,
          requests: s.requests.map((r) => ({
            tokens: r.tokens,
            offered: r.tools.length <= 20 ? r.tools : r.tools.length,
          })),
        })),
        costs,
      },
    };
  },
};
