// The tool-search suite's generated catalog: 1,000 distinct, meaningful operations that load as
// an OpenAPI document through @agent/http-tools and list and run as MCP tools through the SDK's
// client; and the scripted model that searches, calls and reports from the request alone.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadOpenApiTools } from '@agent/http-tools';
import type { ConversationMessage, ToolDefinition } from '@agent/protocol';
import type { RecordedRequest } from '@agent/testkit';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, describe, expect, it } from 'vitest';
import { catalogOperations, MAX_OPERATIONS } from '../src/tool-search/catalog.js';
import { createCatalogServer } from '../src/tool-search/mcp-server.js';
import { catalogDocument } from '../src/tool-search/openapi-document.js';
import { answerFor, notFoundReport, TASKS, taskTool } from '../src/tool-search/script.js';

const dir = mkdtempSync(join(tmpdir(), 'bench-tool-search-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('catalogOperations', () => {
  it('names 1,000 operations apart, each with its own path and a summary in words', () => {
    const operations = catalogOperations(1000);
    expect(new Set(operations.map((o) => o.id)).size).toBe(1000);
    expect(new Set(operations.map((o) => o.toolName)).size).toBe(1000);
    expect(new Set(operations.map((o) => `${o.method} ${o.path}`)).size).toBe(1000);
    expect(new Set(operations.map((o) => o.tag)).size).toBe(10);
    expect(new Set(operations.map((o) => o.summary)).size).toBe(1000);
    const approve = operations.find((o) => o.id === 'approveExpenseClaim');
    expect(approve).toMatchObject({
      toolName: 'approve_expense_claim',
      method: 'POST',
      path: '/payroll/expense-claims/{expenseClaimId}/approve',
      summary: 'Approve a pending expense claim; its owner is notified.',
    });
  });

  it('has the planted operations and every action in its first 100, regions past 1,000, and refuses a bad size', () => {
    const hundred = catalogOperations(100);
    expect(hundred.map((o) => o.id)).toContain(TASKS.openapi.operation);
    expect(hundred.map((o) => o.toolName)).toContain(TASKS.mcp.operation);
    expect(new Set(hundred.map((o) => /^[a-z]+/.exec(o.id)![0])).size).toBe(10);
    const all = catalogOperations(MAX_OPERATIONS);
    expect(new Set(all.map((o) => o.id)).size).toBe(MAX_OPERATIONS);
    expect(all[1000]!.id).toMatch(/^eu[A-Z]/);
    expect(() => catalogOperations(0)).toThrow(/1 to 10000 operations, not 0/);
  });
});

describe('the catalog as an OpenAPI document', () => {
  it('loads as 1,000 HTTP tools whose arguments are the operation parameters', async () => {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(catalogDocument(catalogOperations(1000), 'http://127.0.0.1:9/api')));
    const loaded = await loadOpenApiTools({ name: 'company', spec: file });
    expect(loaded.operationCount).toBe(1000);
    expect(loaded.tools).toHaveLength(1000);
    const approve = loaded.tools.find((t) => t.name === 'company__approveExpenseClaim');
    expect(approve?.method).toBe('POST');
    expect(approve?.url).toContain('/payroll/expense-claims/');
    expect(Object.keys((approve?.parametersSchema?.properties ?? {}) as object).sort()).toEqual([
      'expenseClaimId',
      'note',
    ]);
  });
});

describe('the catalog as an MCP server', () => {
  it('lists one tool per operation and logs the calls it runs', async () => {
    const callsFile = join(dir, 'calls.jsonl');
    writeFileSync(callsFile, '');
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createCatalogServer(catalogOperations(1000), callsFile).connect(serverSide);
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(clientSide);
    try {
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(1000);
      const exportTool = tools.find((t) => t.name === 'export_tracking_events');
      expect(exportTool?.inputSchema.required).toEqual(['format']);
      const result = await client.callTool({ name: 'export_tracking_events', arguments: { format: 'csv' } });
      expect(result.content).toEqual([
        { type: 'text', text: 'export_tracking_events done: {"format":"csv"}' },
      ]);
      const unknown = await client.callTool({ name: 'no_such_tool', arguments: {} });
      expect(unknown.isError).toBe(true);
      expect(readFileSync(callsFile, 'utf8')).toBe(
        '{"name":"export_tracking_events","arguments":{"format":"csv"}}\n',
      );
    } finally {
      await client.close();
    }
  });
});

describe('the scripted model', () => {
  const task = TASKS.openapi;
  const tool = taskTool(task);
  const def = (name: string): ToolDefinition => ({
    name,
    description: name,
    inputSchema: { type: 'object' },
  });
  const request = (tools: string[], messages: ConversationMessage[] = []): RecordedRequest => ({
    api: 'openai-chat',
    model: 'm',
    messages: [
      {
        role: 'user',
        content: `${task.prompt}\n# XML-NEXT: reply inside <ai-agent-0a1b2c3d-FINAL tool="agent__final_report">`,
      },
      ...messages,
    ],
    tools: tools.map(def),
    options: {},
  });
  const searchCall: ConversationMessage = {
    role: 'assistant',
    content: '',
    toolCalls: [{ id: 's1', name: 'tool_search', arguments: { query: task.query } }],
  };

  it('searches while the tool is not offered, calls it once it is, then reports its result', () => {
    expect(answerFor(request(['tool_search'])).toolCalls).toEqual([
      { name: 'tool_search', arguments: { query: task.query } },
    ]);
    expect(answerFor(request(['tool_search', tool], [searchCall])).toolCalls).toEqual([
      { name: tool, arguments: task.arguments },
    ]);
    const answered = answerFor(
      request(
        ['tool_search', tool],
        [
          searchCall,
          { role: 'tool', toolCallId: 's1', toolName: 'tool_search', content: tool },
          {
            role: 'assistant',
            content: '',
            toolCalls: [{ id: 'c1', name: tool, arguments: task.arguments }],
          },
          { role: 'tool', toolCallId: 'c1', toolName: tool, content: '{"done":"POST /x"}' },
        ],
      ),
    );
    expect(answered.text).toContain(`DONE with ${tool}: {"done":"POST /x"}`);
  });

  it('reports the tool not found when a search did not bring it', () => {
    const answer = answerFor(request(['tool_search'], [searchCall]));
    expect(answer.toolCalls).toBeUndefined();
    expect(answer.text).toContain(notFoundReport(task));
  });
});
