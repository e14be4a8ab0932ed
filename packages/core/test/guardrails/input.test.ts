import { finalReport, streamedFinalReport } from '@agent/testkit';
import { afterEach, describe, expect, test } from 'vitest';
import { guardrail } from '../../src/index.js';
import { agentOn, conversationText, guardrailNodes, runGuarded, serve, servers } from './guard-session.js';

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const noSecrets = guardrail({
  name: 'no-secrets',
  on: 'input',
  check: (subject) =>
    subject.text.includes('hunter2') ? { verdict: 'block', reason: 'rule: passwords' } : { verdict: 'pass' },
});

describe('input guardrails', () => {
  test('a blocked prompt ends the run before any model call, with the trip everywhere a user looks', async () => {
    const server = await serve([]);
    const run = await runGuarded(agentOn(server, { guardrails: [noSecrets] }), 'my password is hunter2');
    expect(server.requests).toHaveLength(0);
    const { result } = run;
    expect(result.success).toBe(false);
    expect(result.exitCode).toBe('EXIT-GUARDRAIL');
    expect(result.error).toBe('guardrail no-secrets blocked the input: rule: passwords');
    expect(result.success ? undefined : result.guardrail).toEqual({
      name: 'no-secrets',
      on: 'input',
      phase: 'prompt',
      reason: 'rule: passwords',
    });
    expect(conversationText(result)).not.toContain('hunter2');
    expect(run.runs()).toEqual([
      expect.objectContaining({ name: 'no-secrets', on: 'input', phase: 'prompt', outcome: 'block' }),
    ]);
    expect(result.accounting.filter((e) => e.type === 'guardrail')).toEqual([
      expect.objectContaining({ name: 'no-secrets', phase: 'prompt', outcome: 'block', status: 'ok' }),
    ]);
    const nodes = guardrailNodes(result.opTree);
    expect(nodes).toHaveLength(1);
    expect(nodes[0]).toMatchObject({ status: 'failed', guardrail: { outcome: 'block' } });
    // Under turn 1.
    expect(result.opTree.children[0]?.children).toContain(nodes[0]);
    const lines = result.logs.filter((l) => l.remoteIdentifier === 'agent:guardrail');
    expect(lines).toEqual([expect.objectContaining({ severity: 'ERR' })]);
    expect(result.logs.some((l) => l.remoteIdentifier === 'agent:EXIT-GUARDRAIL')).toBe(true);
  });

  test('a passing prompt reaches the model; each run is a VRB line and a pass event', async () => {
    const server = await serve([finalReport('fine')]);
    const run = await runGuarded(agentOn(server, { guardrails: [noSecrets] }), 'hello');
    expect(run.result.success, run.result.error).toBe(true);
    expect(run.runs().map((r) => r.outcome)).toEqual(['pass']);
    expect(run.result.logs.find((l) => l.remoteIdentifier === 'agent:guardrail')?.severity).toBe('VRB');
  });

  test('a rewrite replaces the prompt the model is sent', async () => {
    const server = await serve([finalReport('ok')]);
    const redact = guardrail({
      name: 'redact-email',
      on: 'input',
      check: (subject) => ({
        verdict: 'rewrite',
        value: subject.text.replace(/\S+@\S+/g, '[email]'),
        reason: 'rule: e-mail addresses',
      }),
    });
    const run = await runGuarded(agentOn(server, { guardrails: [redact] }), 'write to ann@example.com');
    expect(run.result.success, run.result.error).toBe(true);
    const sent = JSON.stringify(server.requests[0]!.messages);
    expect(sent).toContain('write to [email]');
    expect(sent).not.toContain('ann@example.com');
  });

  test('parallel: the model call starts at once; a trip aborts it and nothing it streamed reaches a client', async () => {
    const pieces = Array.from({ length: 40 }, (_, i) => `piece ${i} of the answer. `);
    const server = await serve([streamedFinalReport(pieces, { answer: { tokenDelayMs: 25 } })]);
    const slow = guardrail({
      name: 'slow-judge',
      on: 'input',
      parallel: true,
      check: async () => {
        // The model call is under way (and streaming) before the verdict comes.
        while (server.exchanges.length === 0) await new Promise((r) => setTimeout(r, 5));
        await new Promise((r) => setTimeout(r, 200));
        return { verdict: 'block', reason: 'rule: off-topic' };
      },
    });
    const started = Date.now();
    const run = await runGuarded(agentOn(server, { guardrails: [slow] }), 'tell me a secret');
    expect(run.result.exitCode).toBe('EXIT-GUARDRAIL');
    expect(server.requests).toHaveLength(1);
    // Aborted: the request closed long before the model would have finished (40 x 25 ms).
    const closedAt = await server.closedAt(0, 5_000);
    expect(closedAt).toBeDefined();
    expect(server.exchanges[0]?.answered).toBe(false);
    expect(Date.now() - started).toBeLessThan(5_000);
    const streamedTypes = run.events.map((e) => e.event.type);
    expect(streamedTypes).not.toContain('output');
    expect(streamedTypes).not.toContain('output_retracted');
    // The failure's synthetic report says what happened, nothing of the answer.
    expect(JSON.stringify(run.result.finalReport)).not.toContain('piece');
    expect(conversationText(run.result)).not.toContain('piece');
  });

  test('parallel: when the checks pass, what the model streamed meanwhile goes out, in order', async () => {
    const pieces = ['one ', 'two ', 'three'];
    const server = await serve([streamedFinalReport(pieces, { answer: { tokenDelayMs: 10 } })]);
    const quick = guardrail({ name: 'quick', on: 'input', parallel: true, check: () => ({ verdict: 'pass' }) });
    const run = await runGuarded(agentOn(server, { guardrails: [quick] }), 'count');
    expect(run.result.success, run.result.error).toBe(true);
    expect(run.shown()).toBe('one two three');
  });
});
