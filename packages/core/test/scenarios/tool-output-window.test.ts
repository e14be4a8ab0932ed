import type { RecordedRequest, ScriptedAnswer } from '@agent/testkit';
import { afterEach, describe, expect, test } from 'vitest';
import { memoryTools } from '../helpers/memory-tools.js';
import { runScenario, toolEntries, xmlReport } from '../helpers/scenario.js';
import {
  extractionAnswer,
  handleIn,
  isMapCall,
  isReadGrepChild,
  logText,
  readGrepTools,
  storeParent,
  systemOf,
  toolResult,
} from '../helpers/tool-output.js';

// Issue 36: extraction sizes itself to the session's context window, and read-grep runs in
// @agent/core alone (its own Read/Grep over the store, no MCP server).

const parents: ReturnType<typeof storeParent>[] = [];
function parent() {
  const made = storeParent();
  parents.push(made);
  return made;
}
afterEach(() => {
  for (const p of parents.splice(0)) p.remove();
});

const callTool = (id: string, name: string): ScriptedAnswer => ({
  toolCalls: [{ id, name, arguments: {} }],
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
const grepFor = (pattern: string) => (r: RecordedRequest) => {
  expect(isReadGrepChild(r)).toBe(true);
  const handle = /- Handle\/filename: (\S+)/.exec(systemOf(r))![1]!;
  return { toolCalls: [{ id: 'g1', name: 'Grep', arguments: { pattern, path: handle } }] };
};
/** The child's answer: the workers its Grep call found. */
const foundWorkers = (r: RecordedRequest) => {
  const found = [...toolResult(r.messages, 'g1').matchAll(/(?:INFO|ERROR) (worker-\d+)/g)].map((m) => m[1]);
  return { text: extractionAnswer(`Found: ${found.join(', ')}`) };
};
const report = (r: RecordedRequest) => ({ text: xmlReport(toolResult(r.messages, 'c2')) });

describe('extraction follows the session context window', () => {
  test('contextWindow 6000: a 600-line log that fits one 131K chunk goes read-grep', async () => {
    const store = parent();
    const tools = memoryTools('logs', { tail: () => logText(600) });
    const run = await runScenario({
      tools: [tools],
      contextWindow: 6000,
      toolResponseMaxBytes: 4096,
      toolOutput: { storeDir: store.path, createReadGrepTools: readGrepTools },
      scripts: [
        [
          callTool('c1', 'tail'),
          extractCall('c2', 'workers 150 and 450'),
          grepFor('worker-(150|450) '),
          foundWorkers,
          report,
        ],
      ],
    });
    expect(run.result.success).toBe(true);
    expect(toolResult(run.result.conversation, 'c2')).toMatch(
      /STRATEGY:read-grep:\n\nFound: worker-150, worker-450$/,
    );
    // No map call was sent: the one 131K-sized chunk would not fit a 6000-token model.
    expect(run.models[0]!.requests.some(isMapCall)).toBe(false);
  });

  test('contextWindow 6000, full-chunked forced: every map request fits the window', async () => {
    const store = parent();
    const tools = memoryTools('logs', { tail: () => logText(600) });
    const run = await runScenario({
      tools: [tools],
      contextWindow: 6000,
      maxOutputTokens: 1000,
      toolResponseMaxBytes: 4096,
      toolOutput: { storeDir: store.path },
      scripts: [
        [
          callTool('c1', 'tail'),
          extractCall('c2', 'failed workers', 'full-chunked'),
          ...Array.from({ length: 40 }, () => (r: RecordedRequest) => {
            if (!isMapCall(r)) return { text: extractionAnswer('reduced: workers 100 to 600 failed') };
            return { text: extractionAnswer('some failures') };
          }),
        ],
      ],
    });
    const maps = run.models[0]!.requests.filter(isMapCall);
    expect(maps.length).toBeGreaterThan(1);
    for (const map of maps) {
      const chars = map.messages.reduce((n, m) => n + String(m.content).length, 0);
      // About 4 characters a token, plus the 1000 output tokens: within the 6000-token window.
      expect(Math.ceil(chars / 4) + 1000).toBeLessThanOrEqual(6000);
    }
    expect(toolResult(run.result.conversation, 'c2')).toMatch(/STRATEGY:full-chunked:/);
  });
});

describe('read-grep in @agent/core alone', () => {
  test('toolResponseMaxBytes and no Read/Grep factory: read-grep runs over the stored file', async () => {
    const store = parent();
    // 20,000 lines (about 280K tokens): more than one chunk of the default 131K window.
    const tools = memoryTools('logs', { tail: () => logText(20_000) });
    const run = await runScenario({
      tools: [tools],
      toolResponseMaxBytes: 4096,
      scripts: [
        [callTool('c1', 'tail'), extractCall('c2', 'failed workers'), grepFor('ERROR'), foundWorkers, report],
      ],
    });
    expect(run.result.success).toBe(true);
    expect(toolResult(run.result.conversation, 'c2')).toMatch(
      /STRATEGY:read-grep:\n\nFound: worker-1000, worker-2000, (worker-\d+, ){17}worker-20000$/,
    );
    expect(toolEntries(run.result).find((e) => e.command === 'Grep')).toMatchObject({
      status: 'ok',
      agentPath: 'main.tool_output',
    });
    expect(run.result.logs.some((l) => l.details?.fallback === 'truncate')).toBe(false);
    expect(store.sessionDirs()).toEqual([]);
  });
});
