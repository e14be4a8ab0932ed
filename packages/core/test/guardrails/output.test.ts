import { finalReport, streamedFinalReport } from '@agent/testkit';
import { afterEach, describe, expect, test } from 'vitest';
import { guardrail } from '../../src/index.js';
import { agentOn, conversationText, runGuarded, serve, servers } from './guard-session.js';

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const SECRET = 'SECRET-7731';

/** Blocks any text with the secret in it (as a regex guardrail would). */
const noSecret = guardrail({
  name: 'no-secret',
  on: 'output',
  check: (subject) =>
    subject.text.includes(SECRET) ? { verdict: 'block', reason: 'rule: secret marker' } : { verdict: 'pass' },
});

/** `count` pieces of 40 characters, streamed one delta each. */
function pieces(count: number, at?: number): string[] {
  return Array.from({ length: count }, (_, i) =>
    i === at
      ? `piece ${String(i).padStart(3, '0')} has ${SECRET} in it.... `
      : `piece ${String(i).padStart(3, '0')} is plain text, nothing else. `,
  );
}

describe('output guardrails on the streamed report', () => {
  test('a block mid-stream: no offending text in any output event, what streamed is retracted, EXIT-GUARDRAIL', async () => {
    const text = pieces(60, 30);
    const server = await serve([streamedFinalReport(text)]);
    const run = await runGuarded(agentOn(server, { guardrails: [noSecret] }), 'report');
    expect(run.result.exitCode).toBe('EXIT-GUARDRAIL');
    expect(run.result.error).toBe('guardrail no-secret blocked the report: rule: secret marker');
    const shown = run.shown();
    // Some of the report went out before the offending piece, none of it and nothing after.
    expect(shown.length).toBeGreaterThan(0);
    expect(shown).not.toContain('SECRET');
    expect(shown).not.toContain('piece 059');
    const retracted = run.events.map((e) => e.event).filter((e) => e.type === 'output_retracted');
    expect(retracted).toEqual([expect.objectContaining({ slug: 'guardrail', characters: shown.length })]);
    expect(JSON.stringify(run.result.finalReport)).not.toContain('SECRET');
    expect(conversationText(run.result)).not.toContain('SECRET');
    expect(run.result.success ? undefined : run.result.guardrail).toMatchObject({ phase: 'stream' });
  });

  test('a match split across two deltas is still seen (the overlap)', async () => {
    const text = [...pieces(10), 'SECR', 'ET-7731 tail', ...pieces(10)];
    const server = await serve([streamedFinalReport(text)]);
    const run = await runGuarded(agentOn(server, { guardrails: [noSecret] }), 'report');
    expect(run.result.exitCode).toBe('EXIT-GUARDRAIL');
    expect(run.shown()).not.toContain('ET-7731');
  });

  test('a clean report streams whole, checked in batches of at least 256 characters: linear in its length', async () => {
    const text = pieces(500);
    const total = text.join('').length;
    const server = await serve([streamedFinalReport(text)]);
    let checked = 0;
    let calls = 0;
    const counting = guardrail({
      name: 'counting',
      on: 'output',
      phases: ['stream'],
      check: (subject) => {
        checked += subject.text.length;
        calls++;
        return { verdict: 'pass' };
      },
    });
    const run = await runGuarded(agentOn(server, { guardrails: [counting] }), 'report');
    expect(run.result.success, run.result.error).toBe(true);
    expect(run.shown()).toBe(text.join(''));
    // Each character once, plus at most 256 of overlap per check; never the whole text again.
    expect(calls).toBeLessThanOrEqual(Math.ceil(total / 256) + 1);
    expect(checked).toBeLessThanOrEqual(total + calls * 256);
  });

  test('a stream check that asks for a rewrite holds the rest; the report check decides what is committed', async () => {
    const text = pieces(20, 15);
    const server = await serve([streamedFinalReport(text)]);
    const redact = guardrail({
      name: 'redact',
      on: 'output',
      check: (subject) =>
        subject.text.includes(SECRET)
          ? {
              verdict: 'rewrite',
              value: subject.text.replaceAll(SECRET, '[redacted]'),
              reason: 'rule: secret marker',
            }
          : { verdict: 'pass' },
    });
    const run = await runGuarded(agentOn(server, { guardrails: [redact] }), 'report');
    expect(run.result.success, run.result.error).toBe(true);
    const committed = text.join('').replaceAll(SECRET, '[redacted]');
    expect(run.result.finalReport?.content).toBe(committed);
    const events = run.events.map((e) => e);
    const streamed = events.filter((e) => e.event.type === 'output' && e.meta.source === 'stream');
    const finalized = events.filter((e) => e.event.type === 'output' && e.meta.source === 'finalize');
    expect(streamed.map((e) => (e.event as { text: string }).text).join('')).not.toContain('SECRET');
    expect(events.some((e) => e.event.type === 'output_retracted' && e.event.slug === 'guardrail')).toBe(
      true,
    );
    expect(finalized.map((e) => (e.event as { text: string }).text).join('')).toBe(committed);
    expect(run.shown()).not.toContain(SECRET);
    // Nor is the model's own report kept in the conversation the result carries.
    expect(JSON.stringify(run.result.conversation)).not.toContain(SECRET);
    expect(JSON.stringify(run.result.conversation)).toContain('[redacted]');
  });
});

describe('output guardrails on the report before it commits', () => {
  test('a rewrite of a json report is validated against the schema again; a valid one commits', async () => {
    const server = await serve([finalReport({ name: 'Ann', email: 'ann@example.com' })]);
    const schema = {
      type: 'object',
      properties: { name: { type: 'string' }, email: { type: 'string' } },
      required: ['name', 'email'],
    };
    const redact = guardrail({
      name: 'redact-json',
      on: 'output',
      phases: ['report'],
      check: (subject) =>
        subject.phase === 'report' && subject.text.includes('@')
          ? {
              verdict: 'rewrite',
              value: { ...subject.report.content_json, email: '[email]' },
              reason: 'rule: e-mail',
            }
          : { verdict: 'pass' },
    });
    const run = await runGuarded(
      agentOn(server, { guardrails: [redact], output: { format: 'json', schema } }),
      'who',
    );
    expect(run.result.success, run.result.error).toBe(true);
    expect(run.result.finalReport?.content_json).toEqual({ name: 'Ann', email: '[email]' });
    expect(JSON.stringify(run.events.filter((e) => e.event.type === 'output'))).not.toContain(
      'ann@example.com',
    );
    expect(JSON.stringify(run.result.conversation)).not.toContain('ann@example.com');
  });

  test('a rewrite that misses the schema is the guardrail failing: closed, the run trips', async () => {
    const server = await serve([finalReport({ name: 'Ann' })]);
    const schema = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };
    const broken = guardrail({
      name: 'broken',
      on: 'output',
      phases: ['report'],
      check: () => ({ verdict: 'rewrite', value: { nom: 1 }, reason: 'rule: rename' }),
    });
    const run = await runGuarded(
      agentOn(server, { guardrails: [broken], output: { format: 'json', schema } }),
      'who',
    );
    expect(run.result.exitCode).toBe('EXIT-GUARDRAIL');
    expect(run.result.error).toContain(
      'guardrail broken blocked the report: the guardrail failed: its rewrite cannot be used',
    );
    expect(run.runs()).toEqual([expect.objectContaining({ outcome: 'error', phase: 'report' })]);
  });

  test('a block on the report: no report in the result nor in any event', async () => {
    const server = await serve([finalReport(`the code is ${SECRET}`)]);
    const run = await runGuarded(agentOn(server, { guardrails: [noSecret] }), 'code?');
    expect(run.result.exitCode).toBe('EXIT-GUARDRAIL');
    expect(JSON.stringify(run.result.finalReport)).not.toContain(SECRET);
    expect(conversationText(run.result)).not.toContain(SECRET);
    expect(JSON.stringify(run.events.filter((e) => e.event.type !== 'log'))).not.toContain(SECRET);
  });
});
