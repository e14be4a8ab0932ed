// Statements of the seeds (docs/seed-conformance.md) that no other scenario asserted.
import { readdirSync } from 'node:fs';
import type { ModelClient, ModelStreamEvent, ToolProvider } from '@agent/protocol';
import { type RecordedRequest, scriptedModel } from '@agent/testkit';
import { afterEach, describe, expect, test } from 'vitest';
import { runAgent } from '../../src/index.js';
import { memoryTools } from '../helpers/memory-tools.js';
import { runScenario, TAG, toolEntries, xmlReport } from '../helpers/scenario.js';
import { storeParent } from '../helpers/tool-output.js';

/** A client that answers once with the given events (a routed provider, say). */
function oneAnswer(events: ModelStreamEvent[]): ModelClient {
  return {
    provider: 'router',
    model: 'auto',
    async *stream() {
      for (const event of events) yield event;
    },
  };
}

const NONCE_IN_NOTICE = /ai-agent-([0-9a-f]+)-FINAL/;

describe('seed 002: accounting records', () => {
  test('an llm entry carries the provider and model that actually answered and the upstream cost', async () => {
    const client = oneAnswer([
      { type: 'text-delta', text: xmlReport('routed') },
      {
        type: 'usage',
        usage: {
          inputTokens: 12,
          outputTokens: 3,
          totalTokens: 15,
          costUsd: 0.01,
          upstreamInferenceCostUsd: 0.008,
        },
      },
      { type: 'finish', stopReason: 'stop', actualProvider: 'DeepInfra', actualModel: 'llama-3.3-70b' },
    ]);
    const result = await runAgent({ model: client, prompt: 'x', internal: { nonce: 'abcd1234' } });
    expect(result.success).toBe(true);
    expect(result.accounting.find((e) => e.type === 'llm')).toMatchObject({
      provider: 'router',
      model: 'auto',
      actualProvider: 'DeepInfra',
      actualModel: 'llama-3.3-70b',
      costUsd: 0.01,
      upstreamInferenceCostUsd: 0.008,
      tokens: { inputTokens: 12, outputTokens: 3, totalTokens: 15 },
    });
  });

  test('an answer without usage is accounted with zero tokens', async () => {
    const client = oneAnswer([
      { type: 'text-delta', text: xmlReport('no usage') },
      { type: 'finish', stopReason: 'stop' },
    ]);
    const result = await runAgent({ model: client, prompt: 'x', internal: { nonce: 'abcd1234' } });
    const entry = result.accounting.find((e) => e.type === 'llm');
    expect(entry).toMatchObject({
      status: 'ok',
      tokens: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    });
  });
});

describe('seed 002: session config', () => {
  test('headendId is on every log line and every event meta', async () => {
    const run = await runScenario({ headendId: 'rest', scripts: [[{ text: xmlReport('hi') }]] });
    expect(run.result.logs.length).toBeGreaterThan(0);
    expect(run.result.logs.every((l) => l.headendId === 'rest')).toBe(true);
    expect(run.events.every((e) => e.meta.headendId === 'rest')).toBe(true);
  });

  test('the stream flag reaches the model, and tools go with toolChoice auto', async () => {
    const tools = memoryTools('t', { a: () => 'A' });
    const run = await runScenario({
      stream: false,
      tools: [tools],
      scripts: [[{ text: xmlReport('x') }]],
    });
    expect(run.models[0]!.requests[0]!.options).toMatchObject({ stream: false, toolChoice: 'auto' });
  });

  test('a prompt that is not a string ends with EXIT-CONFIGURATION naming it, before any model call', async () => {
    const model = scriptedModel([{ text: xmlReport('never') }]);
    const result = await runAgent({ model, prompt: 42 as never });
    expect(result.exitCode).toBe('EXIT-CONFIGURATION');
    expect(result.error).toMatch(/prompt must be a string, got 42/);
    expect(model.calls).toBe(0);
  });
});

describe('seed 002: library guarantees', () => {
  test('an unexpected exception still returns a result, with the EXIT marker and the FIN summaries', async () => {
    const buggy: ToolProvider = {
      id: 'buggy',
      instructions: () => {
        throw new Error('instructions exploded');
      },
      listTools: async () => [],
      execute: async () => ({ ok: true, text: '' }),
    };
    const run = await runScenario({ tools: [buggy], scripts: [[{ text: xmlReport('never') }]] });
    expect(run.result.success).toBe(false);
    expect(run.result.exitCode).toBe('EXIT-UNCAUGHT-EXCEPTION');
    expect(run.result.error).toContain('instructions exploded');
    const exit = run.result.logs.find((l) => l.remoteIdentifier === 'agent:EXIT-UNCAUGHT-EXCEPTION');
    expect(exit?.severity).toBe('ERR');
    expect(run.result.logs.filter((l) => l.severity === 'FIN').map((l) => l.type)).toEqual(['llm', 'tool']);
  });
});

describe('seed 000: capture, telemetry and logging of the final report', () => {
  test('the committed report is logged with its status, and its event carries status, format and time', async () => {
    const payload = '# Findings\nThree items.';
    const before = Date.now();
    const run = await runScenario({
      scripts: [[{ text: xmlReport(payload, 'status="partial" format="markdown"') }]],
    });
    const exit = run.result.logs.find((l) => l.remoteIdentifier === 'agent:EXIT-FINAL-ANSWER');
    expect(exit?.message).toBe('final report committed (partial)');
    const event = run.events.find((e) => e.event.type === 'final_report')?.event;
    expect(event).toMatchObject({
      report: { status: 'partial', format: 'markdown', content: payload },
    });
    const ts = (event as { report: { ts: number } }).report.ts;
    expect(ts).toBeGreaterThanOrEqual(before);
    expect(ts).toBeLessThanOrEqual(Date.now());
    // Content size: the report's accounting entry counts the payload.
    expect(toolEntries(run.result).find((e) => e.command === 'agent__final_report_xml')).toMatchObject({
      charactersIn: payload.length,
      charactersOut: 12,
    });
  });
});

describe('seed 000: from tool call, retries and precedence', () => {
  test('a native agent__final_report call is answered "Final report captured."', async () => {
    const run = await runScenario({
      scripts: [
        [
          {
            toolCalls: [
              {
                id: 'fr',
                name: 'agent__final_report',
                arguments: {
                  report_format: 'markdown',
                  status: 'success',
                  report_content: 'done',
                  encoding: 'raw',
                },
              },
            ],
          },
        ],
      ],
    });
    expect(run.result.finalReport?.content).toBe('done');
    expect(run.result.conversation.find((m) => m.role === 'tool' && m.toolCallId === 'fr')?.content).toBe(
      'Final report captured.',
    );
  });

  test('invalid reports on every attempt of a turn force the final turn, where a valid one commits', async () => {
    const bad = { text: xmlReport('not json', 'status="success" format="json"') };
    const run = await runScenario({
      maxRetries: 2,
      output: { format: 'json' },
      scripts: [[bad, bad, { text: xmlReport('{"ok": true}', 'status="success" format="json"') }]],
    });
    expect(run.result.success).toBe(true);
    expect(run.result.finalReport?.content_json).toEqual({ ok: true });
    const started = run.events.filter((e) => e.event.type === 'turn_started').map((e) => e.event);
    expect(started.at(-1)).toMatchObject({
      turn: 2,
      isFinalTurn: true,
      forcedFinalReason: 'retry_exhaustion',
    });
    const rejected = run.result.logs.filter(
      (l) =>
        l.severity === 'WRN' && l.message.startsWith('final report rejected (final_report_json_invalid)'),
    );
    expect(rejected).toHaveLength(2);
  });

  test('the XML slot takes precedence over a native agent__final_report call in the same answer', async () => {
    const run = await runScenario({
      scripts: [
        [
          {
            text: xmlReport('from the tag'),
            toolCalls: [
              {
                name: 'agent__final_report',
                arguments: { report_format: 'markdown', status: 'success', report_content: 'from the call' },
              },
            ],
          },
        ],
      ],
    });
    expect(run.result.finalReport?.content).toBe('from the tag');
    expect(toolEntries(run.result).map((e) => e.command)).toContain('agent__final_report_xml');
  });
});

describe('seed 002: lifecycle and logs', () => {
  test("the system prompt is the instructions plus the tool providers' instructions; the output schema is not in it", async () => {
    const withInstructions: ToolProvider = {
      ...memoryTools('docs', { search: () => 'hit' }),
      instructions: () => 'Search before answering.',
    };
    const schema = { type: 'object', properties: { answerField: { type: 'string' } } };
    const run = await runScenario({
      instructions: 'You are a librarian.',
      output: { format: 'json', schema },
      tools: [withInstructions],
      scripts: [[{ text: xmlReport('{"answerField": "x"}', 'status="success" format="json"') }]],
    });
    const [system] = run.models[0]!.requests[0]!.messages;
    expect(system).toEqual({ role: 'system', content: 'You are a librarian.\n\nSearch before answering.' });
    expect(run.models[0]!.requests[0]!.messages.at(-1)!.content).toContain('answerField');
  });

  test('plain text without a report is retried on the next model of the list within the turn', async () => {
    const run = await runScenario({
      scripts: [[{ text: 'just prose' }], [{ text: xmlReport('from the second model') }]],
    });
    expect(run.result.finalReport?.content).toBe('from the second model');
    expect(run.models.map((m) => m.calls)).toEqual([1, 1]);
    const started = run.events.filter((e) => e.event.type === 'turn_started').map((e) => e.event);
    expect(started[1]).toMatchObject({ turn: 1, attempt: 2, retrySlugs: ['plain_text'] });
  });

  test('llm lines are named provider:model; a failed attempt carries its error, an ok one none', async () => {
    const run = await runScenario({
      scripts: [[{ error: { kind: 'server', message: 'upstream 503' } }, { text: xmlReport('x') }]],
    });
    const llmLines = run.result.logs.filter(
      (l) => l.type === 'llm' && l.severity === 'VRB' && l.direction === 'request',
    );
    expect(llmLines.map((l) => l.remoteIdentifier)).toEqual(['p1:m1', 'p1:m1']);
    const [failed, ok] = run.result.accounting.filter((e) => e.type === 'llm');
    expect(failed).toMatchObject({ status: 'failed', error: expect.stringContaining('upstream 503') });
    expect(ok?.status).toBe('ok');
    expect(ok?.error).toBeUndefined();
  });
});

describe('seed 003: the nonce and the end of the session', () => {
  test('each session draws its own 8-hex nonce and keeps it on every turn', async () => {
    const nonces: string[][] = [];
    for (let session = 0; session < 2; session++) {
      const seen: string[] = [];
      const fromNotice = (r: RecordedRequest) => {
        const nonce = NONCE_IN_NOTICE.exec(r.messages.at(-1)!.content)![1]!;
        seen.push(nonce);
        return nonce;
      };
      const tools = memoryTools('t', { work: () => 'done' });
      const model = scriptedModel([
        (r) => {
          fromNotice(r);
          return { toolCalls: [{ name: 'work', arguments: {} }] };
        },
        (r) => {
          fromNotice(r);
          return { toolCalls: [{ name: 'work', arguments: {} }] };
        },
        (r) => {
          const nonce = fromNotice(r);
          return {
            text: `<ai-agent-${nonce}-FINAL tool="agent__final_report" status="success" format="markdown">ok</ai-agent-${nonce}-FINAL>`,
          };
        },
      ]);
      const result = await runAgent({ model, tools: [tools], prompt: 'x' });
      expect(result.success).toBe(true);
      nonces.push(seen);
    }
    for (const seen of nonces) {
      expect(seen).toHaveLength(3);
      expect(seen[0]).toMatch(/^[0-9a-f]{8}$/);
      expect(new Set(seen).size).toBe(1);
    }
    expect(nonces[0]![0]).not.toBe(nonces[1]![0]);
  });

  test('the XML report ends the session with no tool response message', async () => {
    const run = await runScenario({ scripts: [[{ text: xmlReport('the end') }]] });
    const last = run.result.conversation.at(-1)!;
    expect(last.role).toBe('assistant');
    expect(last.content).toContain(`</${TAG}>`);
    expect(run.result.conversation.some((m) => m.role === 'tool')).toBe(false);
  });
});

describe('seed 001: only oversized outputs are stored', () => {
  const parents: ReturnType<typeof storeParent>[] = [];
  afterEach(() => {
    for (const p of parents.splice(0)) p.remove();
  });

  test('with the module on, a result under the cap stays whole and nothing is written', async () => {
    const store = storeParent();
    parents.push(store);
    let seenDirs: string[] = [];
    const tools = memoryTools('t', { small: () => 'a small result' });
    const run = await runScenario({
      toolOutput: { storeDir: store.path },
      tools: [tools],
      scripts: [
        [
          { toolCalls: [{ id: 's', name: 'small', arguments: {} }] },
          (r) => {
            seenDirs = readdirSync(store.path);
            expect(r.tools.map((t) => t.name)).not.toContain('tool_output');
            return { text: xmlReport('ok') };
          },
        ],
      ],
    });
    expect(run.result.conversation.find((m) => m.role === 'tool')?.content).toBe('a small result');
    expect(seenDirs).toEqual([]);
  });
});
