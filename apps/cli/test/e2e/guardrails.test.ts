import type { AccountingEntry, ConversationMessage } from '@agent/protocol';
import { finalReport } from '@agent/testkit';
import { afterAll, expect, test } from 'vitest';
import {
  agentFile,
  isolatedEnv,
  lastLine,
  removeWorkspaces,
  report,
  runCli,
  type Step,
  scriptedServer,
  workspace,
} from './helpers.js';

afterAll(removeWorkspaces);

// Guardrails from agent files, through the built CLI and the scripted model server over HTTP:
// a trip ends the run with exit 12 and one stderr line naming the guardrail, its stage and its
// reason, and nothing it blocked reaches stdout or the model.

function runIn(ws: ReturnType<typeof workspace>, args: string[]) {
  return runCli([...args, '--config', ws.file('agent.json')], { cwd: ws.dir, env: isolatedEnv(ws) });
}

const toolTexts = (messages: readonly ConversationMessage[]) =>
  messages.filter((m) => m.role === 'tool').map((m) => JSON.stringify(m.content));

test('an input guardrail trips before any model call: exit 12, 0 model requests, nothing on stdout', async () => {
  const server = await scriptedServer([report('never asked')]);
  const ws = workspace(server, {
    'ask.ai': agentFile(
      'models: test/scripted-model\nguardrails:\n  - { name: short-prompts, on: input, kind: max_length, max: 40 }',
    ),
  });
  const run = await runIn(ws, ['run', 'ask.ai', `Please summarise ${'this very long text '.repeat(5)}`]);
  expect(run.code).toBe(12);
  expect(server.calls).toBe(0);
  expect(run.stdout).toBe('');
  expect(lastLine(run.stderr)).toMatch(
    /^agent: EXIT-GUARDRAIL: guardrail short-prompts blocked the run on input \(prompt\): .+ \(exit 12\)$/,
  );
});

test('a model-judged guardrail blocks the report: exit 12, the judge ran on its own model and its cost is accounted', async () => {
  const judgePrompts: string[] = [];
  const server = await scriptedServer([
    report('Take two of the blue pills every hour.'),
    (request) => {
      expect(request.model).toBe('judge-model');
      judgePrompts.push(JSON.stringify(request.messages));
      return finalReport(
        { verdict: 'block', reason: 'rule 2: no medical dosing advice' },
        { answer: { usage: { inputTokens: 70, outputTokens: 9 } } },
      );
    },
  ]);
  const ws = workspace(server, {
    'ask.ai': agentFile(
      'models: test/scripted-model\nguardrails:\n  - { name: medical, on: output, kind: model, agent: ./judge.ai }',
    ),
    'judge.ai': agentFile(
      'models: test/judge-model\ndescription: Judges answers',
      'Answer block when the text gives medical dosing advice, else pass.',
    ),
  });
  const run = await runIn(ws, ['run', 'ask.ai', 'How many pills?', '--json']);
  expect(run.code).toBe(12);
  expect(server.calls).toBe(2);
  expect(judgePrompts[0]).toContain('Take two of the blue pills every hour.');
  const result = JSON.parse(run.stdout) as {
    exitCode: string;
    finalReport?: { content?: string };
    guardrail?: { name: string; on: string; reason: string };
    accounting: AccountingEntry[];
  };
  expect(result.exitCode).toBe('EXIT-GUARDRAIL');
  expect(result.guardrail).toMatchObject({
    name: 'medical',
    on: 'output',
    reason: 'rule 2: no medical dosing advice',
  });
  expect(JSON.stringify(result.finalReport ?? {})).not.toContain('blue pills');
  const judgeCalls = result.accounting.filter(
    (entry) => entry.type === 'llm' && entry.model === 'judge-model',
  );
  expect(judgeCalls).toHaveLength(1);
  expect(judgeCalls[0]).toMatchObject({ tokens: { inputTokens: 70, outputTokens: 9 } });
  expect(result.accounting.some((entry) => entry.type === 'guardrail' && entry.name === 'medical')).toBe(
    true,
  );
  expect(lastLine(run.stderr)).toBe(
    'agent: EXIT-GUARDRAIL: guardrail medical blocked the run on output (report): rule 2: no medical dosing advice (exit 12)',
  );
});

test('PII in a tool result is redacted before the model sees it', async () => {
  const seen: string[] = [];
  const main: Step[] = [
    () => ({
      toolCalls: [{ id: 'call_1', name: 'agent__helper', arguments: { prompt: 'find the contact' } }],
    }),
    report('Jane can be mailed at jane.doe@example.com', { format: 'sub-agent' }),
    (request, nonce) => {
      seen.push(...toolTexts(request.messages));
      return report('I found the contact.')(request, nonce);
    },
  ];
  const server = await scriptedServer(main);
  const ws = workspace(server, {
    'ask.ai': agentFile(
      [
        'models: test/scripted-model',
        'agents: [helper.ai]',
        'guardrails:',
        '  - { name: no-pii, on: tool, kind: pii, detect: email, action: redact, phases: [result] }',
      ].join('\n'),
    ),
    'helper.ai': agentFile('models: test/scripted-model\ndescription: Finds contacts'),
  });
  const run = await runIn(ws, ['run', 'ask.ai', 'Who is the contact?']);
  expect(run.stderr).not.toContain('EXIT-GUARDRAIL');
  expect(run.code).toBe(0);
  expect(run.stdout).toContain('I found the contact.');
  expect(seen).toHaveLength(1);
  expect(seen[0]).toContain('Jane can be mailed at');
  expect(seen[0]).not.toContain('jane.doe@example.com');
  for (const request of server.requests.slice(2))
    expect(JSON.stringify(request.messages)).not.toContain('jane.doe@example.com');
});

// Needs the tool policy evaluation of branch w-c (core): red on w-b2 alone, green once merged.
test('a tool policy rule denies a call: it never runs, the model reads the rule and its reason', async () => {
  const seen: string[] = [];
  const server = await scriptedServer([
    () => ({
      toolCalls: [{ id: 'call_1', name: 'agent__helper', arguments: { prompt: 'delete everything' } }],
    }),
    (request, nonce) => {
      seen.push(...toolTexts(request.messages));
      return report('I may not use the helper.')(request, nonce);
    },
  ]);
  const ws = workspace(server, {
    'ask.ai': agentFile(
      [
        'models: test/scripted-model',
        'agents: [helper.ai]',
        'toolPolicy:',
        '  rules:',
        '    - { name: no-helper, tools: agent__helper, decision: deny, reason: the helper is off today }',
      ].join('\n'),
    ),
    'helper.ai': agentFile('models: test/scripted-model\ndescription: Helps'),
  });
  const run = await runIn(ws, ['run', 'ask.ai', 'Clean up.']);
  expect(run.code).toBe(0);
  expect(run.stdout).toContain('I may not use the helper.');
  // Two model calls: the helper's session never started.
  expect(server.calls).toBe(2);
  expect(seen).toHaveLength(1);
  expect(seen[0]).toContain('denied by policy rule no-helper: the helper is off today');
});
