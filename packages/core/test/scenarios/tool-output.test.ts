import type { RecordedRequest, ScriptedAnswer, ScriptStep } from '@agent/testkit';
import { scriptedModel } from '@agent/testkit';
import { afterEach, describe, expect, test } from 'vitest';
import { memoryTools } from '../helpers/memory-tools.js';
import { llmEntries, runScenario, toolEntries, xmlReport } from '../helpers/scenario.js';
import {
  extractionAnswer,
  handleIn,
  isMapCall,
  isReadGrepChild,
  isReduceCall,
  logText,
  readGrepTools,
  storeParent,
  systemOf,
  toolResult,
} from '../helpers/tool-output.js';

const HANDLE_MESSAGE =
  /^Tool output is too large \((\d+) bytes, (\d+) lines, (\d+) tokens\)\.\nCall tool_output\(handle = "([0-9a-f-]{36})", extract = "what to extract"\)\.\nProvide precise and detailed instructions in `extract` about what you are looking for\.$/;

const parents: ReturnType<typeof storeParent>[] = [];
function parent() {
  const made = storeParent();
  parents.push(made);
  return made;
}
afterEach(() => {
  for (const p of parents.splice(0)) p.remove();
});

const callTool = (id: string, name: string, args: Record<string, unknown> = {}): ScriptedAnswer => ({
  toolCalls: [{ id, name, arguments: args }],
});
const extractCall =
  (id: string, extract: string, mode?: string) =>
  (r: RecordedRequest): ScriptedAnswer => ({
    toolCalls: [
      {
        id,
        name: 'tool_output',
        arguments: { handle: handleIn(r.messages), extract, ...(mode ? { mode } : {}) },
      },
    ],
  });
const reportWith =
  (callId: string): ScriptStep =>
  (r: RecordedRequest) => ({ text: xmlReport(`From the tool: ${toolResult(r.messages, callId)}`) });

describe('tool output: no blind truncation', () => {
  test('a large output becomes a handle, tool_output extracts, and the answer reaches the final report', async () => {
    const store = parent();
    const rows = Array.from({ length: 800 }, (_, i) => `row ${i}: amount ${i % 7}`);
    const big = `${rows.join('\n')}\nTOTAL: 42\n`;
    const tools = memoryTools('db', { export: () => big });
    const run = await runScenario({
      tools: [tools],
      toolOutput: { storeDir: store.path },
      scripts: [
        [
          callTool('c1', 'export', { table: 'sales' }),
          extractCall('c2', 'the TOTAL line'),
          (r) => {
            expect(isMapCall(r)).toBe(true);
            expect(r.messages[1]?.content).toContain('TOTAL: 42');
            return { text: extractionAnswer('The total is 42.') };
          },
          reportWith('c2'),
        ],
      ],
    });
    expect(run.result.success).toBe(true);
    const handleText = toolResult(run.result.conversation, 'c1');
    const [, bytes, lines, , handle] = HANDLE_MESSAGE.exec(handleText)!;
    expect(Number(bytes)).toBe(Buffer.byteLength(big));
    expect(Number(lines)).toBe(801);
    expect(toolResult(run.result.conversation, 'c2')).toBe(
      `ABSTRACT FROM TOOL OUTPUT export WITH HANDLE ${handle}, STRATEGY:full-chunked:\n\nThe total is 42.`,
    );
    expect(run.result.finalReport?.content).toContain('The total is 42.');
    // tool_output is listed only once something is stored
    const [first, second] = run.models[0]!.requests;
    expect(first!.tools.map((t) => t.name)).not.toContain('tool_output');
    expect(second!.tools.map((t) => t.name)).toContain('tool_output');
    const warning = run.result.logs.find((l) => l.severity === 'WRN' && l.details?.handle === handle);
    expect(warning?.details).toMatchObject({ reason: 'size_cap', bytes: Number(bytes), lines: 801 });
    expect(toolEntries(run.result).find((e) => e.command === 'tool_output')).toMatchObject({
      status: 'ok',
      mcpServer: 'agent',
    });
    expect(llmEntries(run.result)).toHaveLength(4);
    // The accounting counts what the model received: the handle message, not the 800 rows.
    expect(toolEntries(run.result).find((e) => e.command === 'export')?.charactersOut).toBe(
      handleText.length,
    );
    expect(store.sessionDirs()).toEqual([]);
  });

  test('a 5 MB single-line JSON goes full-chunked: a map call per chunk, then one reduce', async () => {
    const store = parent();
    const json = JSON.stringify({
      items: Array.from({ length: 60_000 }, (_, i) => ({ id: i, name: `item-${i}`, tags: ['a', 'b'] })),
    });
    const doc = json.length < 5_000_000 ? json + ' '.repeat(5_000_000 - json.length) : json;
    const extractor = scriptedModel(
      Array.from({ length: 100 }, () => (r: RecordedRequest) => {
        if (isReduceCall(r)) return { text: extractionAnswer('item-123 has id 123.') };
        const found = r.messages[1]!.content.includes('"name":"item-123"');
        return {
          text: extractionAnswer(found ? 'id 123 is item-123' : 'NO RELEVANT DATA FOUND\nother items'),
        };
      }),
      { provider: 'ex', model: 'extractor' },
    );
    const tools = memoryTools('api', { dump: () => doc });
    const run = await runScenario({
      tools: [tools],
      toolOutput: { storeDir: store.path, models: [{ client: extractor }] },
      scripts: [[callTool('c1', 'dump'), extractCall('c2', 'the id of item-123'), reportWith('c2')]],
    });
    expect(run.result.success).toBe(true);
    const answer = toolResult(run.result.conversation, 'c2');
    expect(answer).toMatch(/STRATEGY:full-chunked:\n\nitem-123 has id 123\.$/);
    const maps = extractor.requests.filter(isMapCall);
    const reduces = extractor.requests.filter(isReduceCall);
    expect(maps.length).toBeGreaterThanOrEqual(10);
    expect(reduces).toHaveLength(1);
    expect(maps.every((r) => systemOf(r).includes(`of ${maps.length}\n- Overlap: 10%`))).toBe(true);
    const sizes = maps.map((r) => r.messages[1]!.content.length);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThan(50);
    const extractorEntries = llmEntries(run.result).filter((e) => e.provider === 'ex');
    expect(extractorEntries).toHaveLength(maps.length + 1);
    expect(extractorEntries.every((e) => e.tokens.inputTokens > 0)).toBe(true);
    const strategyLog = run.result.logs.find(
      (l) => l.details?.strategy === 'full-chunked' && l.direction === 'request',
    );
    expect(strategyLog?.message).toMatch(/average line \d+ bytes > 1000/);
    expect(store.sessionDirs()).toEqual([]);
  });

  test('a 50,000-line log goes read-grep and the child really calls Grep on the real fs MCP server', async () => {
    const store = parent();
    const tools = memoryTools('logs', { tail: () => logText(50_000) });
    let grepResult = '';
    const run = await runScenario({
      tools: [tools],
      toolOutput: { storeDir: store.path, createReadGrepTools: readGrepTools },
      scripts: [
        [
          callTool('c1', 'tail', { service: 'api' }),
          extractCall('c2', 'which workers failed, and why'),
          (r) => {
            expect(isReadGrepChild(r)).toBe(true);
            // Only Read and Grep: no tool_output, no task status, no batch.
            expect(r.tools.map((t) => t.name)).toEqual(['Read', 'Grep']);
            const handle = /- Handle\/filename: (\S+)/.exec(systemOf(r))![1]!;
            return {
              toolCalls: [
                { id: 'g1', name: 'Grep', arguments: { pattern: 'ERROR', path: handle, maxMatches: 5 } },
              ],
            };
          },
          (r) => {
            grepResult = toolResult(r.messages, 'g1');
            const workers = [...grepResult.matchAll(/ERROR (worker-\d+) failed: ([a-z ]+)/g)].map(
              (m) => `${m[1]} (${m[2]})`,
            );
            return { text: extractionAnswer(`Failed: ${workers.join(', ')}`) };
          },
          reportWith('c2'),
        ],
      ],
    });
    expect(run.result.success).toBe(true);
    expect(grepResult).toMatch(
      /^[0-9a-f-]{36}:1000:2026-01-14T10:00:00Z ERROR worker-1000 failed: disk quota exceeded$/m,
    );
    const answer = toolResult(run.result.conversation, 'c2');
    expect(answer).toMatch(/STRATEGY:read-grep:\n\nFailed: worker-1000 \(disk quota exceeded\), worker-2000/);
    expect(run.result.finalReport?.content).toContain('worker-5000 (disk quota exceeded)');
    const grep = toolEntries(run.result).find((e) => e.command === 'Grep');
    expect(grep).toMatchObject({ status: 'ok', mcpServer: 'fs', agentPath: 'main.tool_output' });
    expect(llmEntries(run.result).filter((e) => e.agentPath === 'main.tool_output')).toHaveLength(2);
    expect(run.exitLog).toBe('agent:EXIT-FINAL-ANSWER');
    expect(run.result.logs.filter((l) => l.remoteIdentifier.startsWith('agent:EXIT-'))).toHaveLength(1);
    expect(store.sessionDirs()).toEqual([]);
  });

  test('when the strategy cannot run, tool_output falls back to truncate with a WARNING', async () => {
    const store = parent();
    const failing = scriptedModel([{ error: { kind: 'server' } }], { provider: 'ex', model: 'down' });
    const tools = memoryTools('logs', { tail: () => logText(3000) });
    const run = await runScenario({
      tools: [tools],
      toolOutput: { storeDir: store.path, models: [{ client: failing }] },
      scripts: [[callTool('c1', 'tail'), extractCall('c2', 'errors', 'full-chunked'), reportWith('c2')]],
    });
    const answer = toolResult(run.result.conversation, 'c2');
    expect(answer).toMatch(
      /STRATEGY:truncate:\n\nWARNING: TRUNCATED OUTPUT\. The full-chunked extraction could not run: every extraction model failed the map( \d+\/\d+)? call/,
    );
    expect(answer).toContain('worker-1 processed item 1');
    expect(answer).toContain('worker-3000 ');
    expect(Buffer.byteLength(answer)).toBeLessThan(12_288);
    expect(run.result.logs.some((l) => l.severity === 'WRN' && l.details?.fallback === 'truncate')).toBe(
      true,
    );
    expect(llmEntries(run.result).find((e) => e.provider === 'ex')).toMatchObject({ status: 'failed' });
    expect(store.sessionDirs()).toEqual([]);
  });

  test('two extractions from one handle', async () => {
    const store = parent();
    const tools = memoryTools('db', { export: () => `${'alpha\n'.repeat(3000)}omega=7\n` });
    const run = await runScenario({
      tools: [tools],
      toolOutput: { storeDir: store.path },
      scripts: [
        [
          callTool('c1', 'export'),
          extractCall('c2', 'the omega value'),
          { text: extractionAnswer('omega is 7') },
          (r) => {
            expect(store.sessionDirs()).toHaveLength(1);
            return extractCall('c3', 'how many alpha lines', 'truncate')(r);
          },
          (r) => ({
            text: xmlReport(`${toolResult(r.messages, 'c2')}\n${toolResult(r.messages, 'c3').slice(0, 200)}`),
          }),
        ],
      ],
    });
    const handle = handleIn(run.result.conversation);
    expect(toolResult(run.result.conversation, 'c2')).toBe(
      `ABSTRACT FROM TOOL OUTPUT export WITH HANDLE ${handle}, STRATEGY:full-chunked:\n\nomega is 7`,
    );
    expect(toolResult(run.result.conversation, 'c3')).toMatch(
      new RegExp(`^ABSTRACT FROM TOOL OUTPUT export WITH HANDLE ${handle}, STRATEGY:truncate:\n\nWARNING: `),
    );
    expect(run.result.success).toBe(true);
    expect(store.sessionDirs()).toEqual([]);
  });

  test('tool_output is not offered on the final turn, and a call to it there is not run', async () => {
    const store = parent();
    const tools = memoryTools('db', { export: () => 'x'.repeat(50_000) });
    const run = await runScenario({
      maxTurns: 2,
      tools: [tools],
      toolOutput: { storeDir: store.path },
      scripts: [
        [
          callTool('c1', 'export'),
          extractCall('c2', 'anything'),
          { text: xmlReport('reported without the output') },
        ],
      ],
    });
    expect(run.result.success).toBe(true);
    const finalTurn = run.models[0]!.requests[1]!;
    expect(finalTurn.tools).toEqual([]);
    expect(toolResult(run.result.conversation, 'c2')).toBe('(tool failed: not run)');
    expect(run.models[0]!.requests[2]!.tools).toEqual([]);
    expect(toolEntries(run.result).some((e) => e.command === 'tool_output')).toBe(false);
    expect(store.sessionDirs()).toEqual([]);
  });

  test('tool_output runs inside agent__batch', async () => {
    const store = parent();
    const tools = memoryTools('db', {
      export: () => `${'beta\n'.repeat(4000)}gamma=3\n`,
      ping: () => 'pong',
    });
    const run = await runScenario({
      tools: [tools],
      toolOutput: { storeDir: store.path },
      scripts: [
        [
          callTool('c1', 'export'),
          (r) => ({
            toolCalls: [
              {
                id: 'b1',
                name: 'agent__batch',
                arguments: {
                  calls: [
                    {
                      id: 'x',
                      tool: 'tool_output',
                      parameters: { handle: handleIn(r.messages), extract: 'gamma' },
                    },
                    { id: 'y', tool: 'ping', parameters: {} },
                  ],
                },
              },
            ],
          }),
          { text: extractionAnswer('gamma is 3') },
          reportWith('b1'),
        ],
      ],
    });
    expect(run.result.success).toBe(true);
    const batch = toolResult(run.result.conversation, 'b1');
    expect(batch).toMatch(
      /--- result of call x \(tool_output\) ---\nABSTRACT FROM TOOL OUTPUT export WITH HANDLE [0-9a-f-]{36}, STRATEGY:full-chunked:\n\ngamma is 3/,
    );
    expect(batch).toContain('--- result of call y (ping) ---\npong');
    expect(run.result.finalReport?.content).toContain('gamma is 3');
    expect(store.sessionDirs()).toEqual([]);
  });

  test('settings that cannot work end the session with EXIT-CONFIGURATION', async () => {
    const run = await runScenario({ toolOutput: { maxChunks: 0 }, scripts: [[]] });
    expect(run.result.exitCode).toBe('EXIT-CONFIGURATION');
    expect(run.result.error).toContain('toolOutput.maxChunks must be a positive integer, got 0');
  });

  test('the hook-factory form still works', async () => {
    let built = 0;
    const run = await runScenario({
      toolOutput: () => {
        built++;
        return { size: async () => ({ action: 'keep' }), tools: () => undefined, dispose: async () => {} };
      },
      scripts: [[{ text: xmlReport('ok') }]],
    });
    expect(run.result.success).toBe(true);
    expect(built).toBe(1);
  });
});

describe('tool output store cleanup', () => {
  test('no store directory remains after 200 sessions with random aborts', async () => {
    const store = parent();
    let seed = 20260114;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    const big = 'payload line for the cleanup test\n'.repeat(700);
    const outcomes = { aborted: 0, stored: 0, storedThenAborted: 0, completed: 0 };
    const runOne = async () => {
      const controller = new AbortController();
      const delays = [0, 1, 2, 3].map(() => Math.floor(random() * 4));
      const abortAt = random() < 0.7 ? Math.floor(random() * 14) : undefined;
      const tools = memoryTools('db', {
        export: (_args, options) =>
          new Promise((resolve) => {
            const timer = setTimeout(() => resolve(big), delays[0]);
            options.signal.addEventListener('abort', () => {
              clearTimeout(timer);
              resolve({ ok: false, error: { kind: 'aborted', message: 'aborted' } });
            });
          }),
      });
      if (abortAt !== undefined) setTimeout(() => controller.abort(), abortAt);
      const run = await runScenario({
        signal: controller.signal,
        tools: [tools],
        toolOutput: { storeDir: store.path },
        scripts: [
          [
            { ...callTool('c1', 'export'), delayMs: delays[1] },
            (r) => ({ ...extractCall('c2', 'lines')(r), delayMs: delays[2] }),
            { text: extractionAnswer('700 lines'), delayMs: delays[3] },
            { text: xmlReport('done') },
          ],
        ],
      });
      const stored = run.result.logs.some((l) => l.details?.reason === 'size_cap');
      const aborted = run.result.exitCode === 'EXIT-ABORTED';
      if (stored) outcomes.stored++;
      if (aborted) outcomes.aborted++;
      if (stored && aborted) outcomes.storedThenAborted++;
      if (run.result.success) outcomes.completed++;
    };
    for (let batch = 0; batch < 20; batch++) {
      await Promise.all(Array.from({ length: 10 }, runOne));
    }
    expect(store.sessionDirs()).toEqual([]);
    expect(outcomes.aborted).toBeGreaterThan(20);
    expect(outcomes.completed).toBeGreaterThan(20);
    expect(outcomes.storedThenAborted).toBeGreaterThan(5);
  });
});
