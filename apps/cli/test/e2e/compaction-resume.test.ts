import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ConversationMessage } from '@agent/protocol';
import { finalReport, type RecordedRequest, type ScriptedAnswer, startModelServer } from '@agent/testkit';
import { afterAll, expect, onTestFinished, test } from 'vitest';
import {
  addMcpServers,
  agentFile,
  isolatedEnv,
  nonceOf,
  removeWorkspaces,
  runCli,
  spawnCli,
  waitFor,
  workspace,
} from './helpers.js';

afterAll(removeWorkspaces);

// Issue 39 through the CLI: a durable session compacts, is killed with SIGKILL after the
// compaction was checkpointed, and `agent resume` goes on from the compacted state: the same
// summary (no second summary call for it), the report, and the handle still expands.
const PAGES_MCP = fileURLToPath(new URL('./fixtures/pages-mcp.mjs', import.meta.url));
const MARKER = '[Context compacted]';

const systemOf = (request: RecordedRequest) =>
  request.messages[0]?.role === 'system' ? request.messages[0].content : '';
const textOf = (message: ConversationMessage) =>
  typeof message.content === 'string' ? message.content : JSON.stringify(message.content);
const summaryIn = (request: RecordedRequest) =>
  request.messages.map(textOf).find((text) => text.includes(MARKER));
/** A summary call: no tools, and the FINAL tag named neither in its system prompt (an extraction's) nor last (a turn's notice). */
const isSummary = (request: RecordedRequest) =>
  request.tools.length === 0 &&
  !systemOf(request).includes('-FINAL') &&
  !textOf(request.messages.at(-1) ?? { role: 'user', content: '' }).includes('-FINAL');
const isExtraction = (request: RecordedRequest) =>
  /extract information from a document chunk|synthesize multiple chunk extractions/.test(systemOf(request));

test('kill -9 after a compaction was checkpointed, then agent resume: same summary, no new summary call, the report, and the handle expands', async () => {
  let phase: 'first' | 'resumed' = 'first';
  let nonce = '';
  let turns = 0;
  const summaries: RecordedRequest[] = [];
  const extractions: RecordedRequest[] = [];
  const hung: RecordedRequest[] = [];
  const resumedTurns: RecordedRequest[] = [];
  let release: (() => void) | undefined;

  const sessionTurn = (request: RecordedRequest): ScriptedAnswer | Promise<ScriptedAnswer> => {
    nonce = nonceOf(request.messages);
    const summary = summaryIn(request);
    if (phase === 'first') {
      // The first turn after the compaction: its checkpoint was written before this request; hang here.
      if (summary !== undefined) {
        hung.push(request);
        return new Promise<ScriptedAnswer>((resolve) => {
          release = () => resolve({ text: 'too late' });
        });
      }
      turns += 1;
      return {
        toolCalls: [
          { id: `call_${turns}a`, name: 'pages__page', arguments: { page: `${turns}a` } },
          { id: `call_${turns}b`, name: 'pages__page', arguments: { page: `${turns}b` } },
        ],
      };
    }
    resumedTurns.push(request);
    if (resumedTurns.length === 1) {
      const handle = /call tool_output with handle "([^"]+)"/.exec(summary ?? '')?.[1] ?? 'no-handle';
      return {
        toolCalls: [
          {
            id: 'call_expand',
            name: 'tool_output',
            arguments: { handle, extract: 'page 1a', mode: 'full-chunked' },
          },
        ],
      };
    }
    return finalReport('Resumed and reported.');
  };
  const server = await startModelServer({
    strict: true,
    handler: (request) => {
      if (isSummary(request)) {
        summaries.push(request);
        return { text: `Summary ${summaries.length}: pages 1a to 3b were read.` };
      }
      if (isExtraction(request)) {
        extractions.push(request);
        const tag = `ai-agent-${nonce}-FINAL`;
        return { text: `<${tag} format="text">Page 1a: 1a-fact-7 measured 57 units.</${tag}>` };
      }
      return sessionTurn(request);
    },
  });
  onTestFinished(async () => {
    release?.();
    await server.close();
  });
  const ws = workspace(server, {
    'long.ai': agentFile(
      'models: test/scripted-model\ntools: [pages]\ncontextWindow: 12000\nmaxTurns: 40\ncompaction:\n  at: 0.6\n  keep: 2\n  tokens: 512',
    ),
  });
  addMcpServers(ws, { pages: { type: 'stdio', command: process.execPath, args: [PAGES_MCP] } });
  const tmp = ws.file('tmp');
  mkdirSync(tmp);
  const env = { ...isolatedEnv(ws), TMPDIR: tmp, XDG_STATE_HOME: ws.file('state') };
  const config = ['--config', ws.file('agent.json')];

  const { child, done } = spawnCli(
    ['run', 'long.ai', 'Read the pages.', '--session-id', 'long-1', ...config],
    {
      cwd: ws.dir,
      env,
      timeoutMs: 90_000,
    },
  );
  // Until the compacted request hangs, or the CLI ends early (then its stderr says why).
  let ended: Awaited<typeof done> | undefined;
  void done.then((run) => {
    ended = run;
  });
  await waitFor(() => hung.length === 1 || ended !== undefined, 60_000);
  expect(ended?.stderr ?? '', 'the CLI ended before a compacted request').toBe('');
  expect(summaries).toHaveLength(1);
  child.kill('SIGKILL');
  expect((await done).code).toBe(null);

  phase = 'resumed';
  const resumed = await runCli(['resume', 'long-1', ...config], { cwd: ws.dir, env, timeoutMs: 90_000 });
  expect(resumed.code, resumed.stderr).toBe(0);
  expect(resumed.stdout).toContain('Resumed and reported.');
  // The resumed session's first request carries the same summary; no summary call was made again.
  expect(summaryIn(resumedTurns[0]!)).toBe(summaryIn(hung[0]!));
  expect(summaries).toHaveLength(1);
  // The compacted turns still expand after the resume: the extraction read page 1a as it was.
  const seen = extractions.map((r) => r.messages.map(textOf).join('\n')).join('\n');
  expect(seen).toContain('PAGE 1a ORIGINAL TEXT: 1a-fact-0 measured 0 units;');
  expect(seen).toContain('1a-fact-59 measured');
  const expansion = resumedTurns[1]!.messages.find(
    (m) => m.role === 'tool' && m.toolCallId === 'call_expand',
  );
  expect(expansion?.content).toContain('Page 1a: 1a-fact-7 measured 57 units.');
}, 200_000);
