import { mkdirSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { RecordedRequest } from '@agent/testkit';
import { afterAll, expect, test } from 'vitest';
import {
  addMcpServers,
  agentFile,
  isolatedEnv,
  removeWorkspaces,
  report,
  runCli,
  type Step,
  scriptedServer,
  workspace,
} from './helpers.js';

afterAll(removeWorkspaces);

// Issue 16: a tool output stored behind a handle before a checkpoint still reads through
// `tool_output` after the session resumes in a fresh process (the first process, and its
// tool-output store directory, are gone by then).
const DATA_MCP = fileURLToPath(new URL('./fixtures/data-mcp.mjs', import.meta.url));
const HANDLE = /tool_output\(handle = "([0-9a-f-]{36})"/;

function handleIn(request: RecordedRequest): string {
  for (const message of [...request.messages].reverse()) {
    const found = message.role === 'tool' ? HANDLE.exec(message.content) : null;
    if (found) return found[1]!;
  }
  throw new Error('no handle in the request');
}

const toolText = (request: RecordedRequest, callId: string) =>
  request.messages.find((m) => m.role === 'tool' && m.toolCallId === callId)?.content ?? '';

test('a stored output made before the pause reads through tool_output after agent resume in a new process', async () => {
  let handle = '';
  let sessionNonce = '';
  let mapSawTotal = false;
  let lastRequest: RecordedRequest | undefined;
  // After the tool_output call: its extraction's map (and reduce) calls, answered in the
  // session's FINAL tag (their prompts do not show the nonce), then the report.
  const afterExtraction: Step = (request, nonce) => {
    const system = request.messages[0]?.role === 'system' ? request.messages[0].content : '';
    const tag = `ai-agent-${sessionNonce}-FINAL`;
    if (system.includes('extract information from a document chunk')) {
      const chunk = request.messages.map((m) => m.content).join('\n');
      if (chunk.includes('TOTAL: 42')) mapSawTotal = true;
      const found = chunk.includes('TOTAL: 42') ? 'The total is 42.' : 'NO RELEVANT DATA FOUND';
      return { text: `<${tag} format="text">${found}</${tag}>` };
    }
    if (system.includes('synthesize multiple chunk extractions')) {
      return { text: `<${tag} format="text">The total is 42.</${tag}>` };
    }
    lastRequest = request;
    return report(`Extracted: ${toolText(request, 'c3').split('\n\n')[1] ?? ''}`)(request, nonce);
  };
  const steps: Step[] = [
    () => ({ toolCalls: [{ id: 'c1', name: 'data__export', arguments: {} }] }),
    (request) => {
      handle = handleIn(request);
      return { toolCalls: [{ id: 'c2', name: 'data__ping', arguments: {} }] };
    },
    // After the resume, in the new process: the model asks for the stored output.
    (_request, nonce) => {
      sessionNonce = nonce();
      return {
        toolCalls: [{ id: 'c3', name: 'tool_output', arguments: { handle, extract: 'the TOTAL line' } }],
      };
    },
    ...Array.from({ length: 12 }, () => afterExtraction),
  ];
  const server = await scriptedServer(steps);
  const ws = workspace(server, {
    'main.ai': agentFile(
      'models: test/scripted-model\ntools: [data]\ntoolResponseMaxBytes: 2000\nmaxTurns: 6\napproval:\n  tools: [data__ping]',
    ),
  });
  addMcpServers(ws, { data: { type: 'stdio', command: process.execPath, args: [DATA_MCP] } });
  const tmp = ws.file('tmp');
  mkdirSync(tmp);
  const env = { ...isolatedEnv(ws), TMPDIR: tmp, XDG_STATE_HOME: ws.file('state') };
  const cli = (args: string[]) => runCli([...args, '--config', ws.file('agent.json')], { cwd: ws.dir, env });

  const paused = await cli(['run', 'main.ai', 'Sum the sales.', '--session-id', 'sales-1']);
  expect(paused.code, paused.stderr).toBe(10);
  expect(handle).toMatch(/^[0-9a-f-]{36}$/);
  // The first process removed its tool-output store: the output lives only in the snapshot now.
  expect(readdirSync(tmp).filter((name) => name.startsWith('ai-agent-'))).toEqual([]);

  const resumed = await cli(['resume', 'sales-1', '--deny', 'c2', '--reason', 'not needed']);
  expect(resumed.code, resumed.stderr).toBe(0);
  // The extraction read the restored output: a map call saw its last line.
  expect(mapSawTotal).toBe(true);
  expect(toolText(lastRequest!, 'c3')).toBe(
    `ABSTRACT FROM TOOL OUTPUT data__export WITH HANDLE ${handle}, STRATEGY:full-chunked:\n\nThe total is 42.`,
  );
  expect(resumed.stdout).toContain('Extracted: The total is 42.');
  expect(readdirSync(tmp).filter((name) => name.startsWith('ai-agent-'))).toEqual([]);
});
