import { describe, expect, test } from 'vitest';
import { memoryTools, waitingTool } from '../helpers/memory-tools.js';
import { llmEntries, runScenario, xmlReport } from '../helpers/scenario.js';

const status = (now: string) => ({
  toolCalls: [{ name: 'agent__task_status', arguments: { status: 'in-progress', now } }],
});
const tool = { toolCalls: [{ name: 'work', arguments: {} }] };
const work = () => memoryTools('w', { work: () => 'worked' });

describe('turns and forced final turns', () => {
  test('maxTurns forces the final turn on the last turn, with no tools offered', async () => {
    const run = await runScenario({
      maxTurns: 3,
      tools: [work()],
      scripts: [[tool, tool, { text: xmlReport('at last') }]],
    });
    expect(run.result.success).toBe(true);
    const started = run.events.filter((e) => e.event.type === 'turn_started').map((e) => e.event);
    expect(started.map((e) => (e as { turn: number }).turn)).toEqual([1, 2, 3]);
    expect(started[2]).toMatchObject({ isFinalTurn: true, forcedFinalReason: 'max_turns' });
    expect(run.models[0]!.requests[2]!.tools).toEqual([]);
    expect(run.models[0]!.requests[0]!.tools.length).toBeGreaterThan(0);
  });

  test('running out of turns without a report ends with EXIT-MAX-TURNS-NO-RESPONSE and a synthetic report', async () => {
    // Only a status update ran: no tool result to adopt as the report (see report-origin.test.ts).
    const run = await runScenario({
      maxTurns: 2,
      maxRetries: 2,
      tools: [work()],
      scripts: [[status('working'), { text: '' }, { text: '' }]],
    });
    expect(run.result.success).toBe(false);
    expect(run.result.exitCode).toBe('EXIT-MAX-TURNS-NO-RESPONSE');
    expect(run.result.finalReport).toMatchObject({ status: 'failure', synthetic: true });
  });

  test('the XML-NEXT notice of a forced final turn names the reason', async () => {
    const run = await runScenario({ maxTurns: 1, scripts: [[{ text: xmlReport('x') }]] });
    const notice = run.models[0]!.requests[0]!.messages.at(-1)!.content;
    expect(notice.toLowerCase()).toMatch(/final/);
  });

  test('stop("stop") during a turn lets it finish, then forces the final turn', async () => {
    const run = await runScenario({
      tools: [work()],
      scripts: [[tool, { text: xmlReport('stopped nicely') }]],
      control: (session) => (event) => {
        if (event.type === 'turn_started' && event.turn === 1) session.stop('stop');
      },
    });
    expect(run.result.success).toBe(true);
    const started = run.events.filter((e) => e.event.type === 'turn_started').map((e) => e.event);
    expect(started.at(-1)).toMatchObject({ isFinalTurn: true, forcedFinalReason: 'user_stop' });
  });

  test('stop("abort") mid-stream ends the session promptly with EXIT-ABORTED', async () => {
    const started = Date.now();
    const run = await runScenario({
      scripts: [[{ text: ['a', 'b', 'c', 'd', 'e', 'f'], tokenDelayMs: 2000 }]],
      control: (session) => (event) => {
        if (event.type === 'turn_started') setTimeout(() => session.stop('abort'), 50);
      },
    });
    expect(Date.now() - started).toBeLessThan(1500);
    expect(run.result.success).toBe(false);
    expect(run.result.exitCode).toBe('EXIT-ABORTED');
    expect(run.exitLog).toBe('agent:EXIT-ABORTED');
  });

  test('the caller signal aborts during a tool call, promptly', async () => {
    const controller = new AbortController();
    const tools = memoryTools('w', { slow: waitingTool(30_000) });
    const started = Date.now();
    const run = await runScenario({
      signal: controller.signal,
      tools: [tools],
      scripts: [[{ toolCalls: [{ name: 'slow', arguments: {} }] }]],
      onEvent: (event) => {
        if (event.type === 'log' && event.entry.type === 'tool' && event.entry.direction === 'request') {
          setTimeout(() => controller.abort(), 20);
        }
      },
    });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(run.result.exitCode).toBe('EXIT-ABORTED');
    expect(run.result.success).toBe(false);
  });

  test('an already aborted signal ends before any model call', async () => {
    const controller = new AbortController();
    controller.abort();
    const run = await runScenario({ signal: controller.signal, scripts: [[{ text: xmlReport('never') }]] });
    expect(run.result.exitCode).toBe('EXIT-ABORTED');
    expect(run.models[0]!.calls).toBe(0);
  });

  test('a session can be run only once: run() returns the same result', async () => {
    const { scriptedModel } = await import('@agent/testkit');
    const { createAgentSession } = await import('../../src/index.js');
    const model = scriptedModel([{ text: xmlReport('once') }]);
    const session = createAgentSession({
      models: [{ client: model }],
      prompt: 'x',
      internal: { nonce: 'abcd1234' },
    });
    const [a, b] = await Promise.all([session.run(), session.run()]);
    expect(a).toBe(b);
    expect(model.calls).toBe(1);
  });

  test('turn numbers and attempts are in every llm accounting entry', async () => {
    const run = await runScenario({
      tools: [work()],
      scripts: [[{ error: { kind: 'server' } }, tool, { text: xmlReport('ok') }]],
    });
    expect(llmEntries(run.result).map((e) => [e.turn, e.attempt])).toEqual([
      [1, 1],
      [1, 2],
      [2, 1],
    ]);
  });

  test('conversation history comes before the prompt and the system prompt leads', async () => {
    const run = await runScenario({
      instructions: 'You are terse.',
      history: [
        { role: 'user', content: 'earlier question' },
        { role: 'assistant', content: 'earlier answer' },
      ],
      scripts: [[{ text: xmlReport('x') }]],
    });
    const roles = run.models[0]!.requests[0]!.messages.map((m) => `${m.role}:${m.content.slice(0, 15)}`);
    expect(roles.slice(0, 4)).toEqual([
      'system:You are terse.',
      'user:earlier questio',
      'assistant:earlier answer',
      'user:Do the task.',
    ]);
  });

  test('sampling options reach the model', async () => {
    const run = await runScenario({
      temperature: 0.2,
      topP: 0.9,
      topK: 40,
      repeatPenalty: 1.1,
      maxOutputTokens: 777,
      reasoning: { effort: 'low' },
      scripts: [[{ text: xmlReport('x') }]],
    });
    expect(run.models[0]!.requests[0]!.options).toMatchObject({
      temperature: 0.2,
      topP: 0.9,
      topK: 40,
      repeatPenalty: 1.1,
      maxOutputTokens: 777,
      reasoning: { effort: 'low' },
    });
  });

  test('two task-status-only turns separated by real work do not force the final turn', async () => {
    const run = await runScenario({
      tools: [work()],
      scripts: [[status('a'), tool, status('b'), { text: xmlReport('ok') }]],
    });
    const started = run.events.filter((e) => e.event.type === 'turn_started').map((e) => e.event);
    expect(started.every((e) => (e as { isFinalTurn: boolean }).isFinalTurn === false)).toBe(true);
  });
});
