import { finalReport, scriptedModel } from '@agent/testkit';
import { describe, expect, test } from 'vitest';
import { validateAgentFile } from '../src/index.js';
import { sessionConfigOf } from './helpers/prepare.js';
import { agentFile, isolated, localConfig, tempTree } from './helpers/temp-tree.js';

// `guardrails:` and `toolPolicy:` in agent files: each kind loads into a guardrail of the
// session config; a wrong entry is refused at load with the file, the line and what is allowed;
// a model-judged guardrail's judge file is loaded and checked with the agent.

const agent = (lines: string) => agentFile(`models: [local/m]\n${lines}`);

async function problemsOf(files: Record<string, string | object>) {
  const root = tempTree({ 'agent.json': localConfig(), ...files });
  const validation = await validateAgentFile('a.ai', isolated(root));
  expect(validation.ok).toBe(false);
  return validation.problems;
}

async function configOf(
  files: Record<string, string | object>,
  answers: Parameters<typeof scriptedModel>[0] = [],
) {
  const root = tempTree({ 'agent.json': localConfig(), ...files });
  const { config } = await sessionConfigOf('a.ai', {
    ...isolated(root),
    clientFactory: ({ provider, model }) => scriptedModel(answers, { provider, model }),
  });
  return config;
}

const context = () => ({ signal: new AbortController().signal, sessionId: 's', agentPath: 'a', turn: 1 });

describe('guardrails in agent files', () => {
  test('each built-in kind loads as a guardrail of the session, with its stage and options', async () => {
    const config = await configOf({
      'a.ai': agent(
        [
          'guardrails:',
          '  - { name: no-secrets, on: output, kind: regex, pattern: "sk-[A-Za-z0-9]{8,}", action: block }',
          '  - { name: polite, on: input, kind: words, blocked: "idiot, stupid", parallel: true }',
          '  - { name: pii, on: tool, kind: pii, tools: [fs__*], detect: email, action: redact, phases: [result] }',
          '  - { name: short, on: input, kind: max_length, max: 20, timeoutMs: 2s }',
          '  - { name: args, on: tool, kind: json_schema, schemaRef: ./args.json, phases: [arguments] }',
        ].join('\n'),
      ),
      'args.json': { type: 'object', properties: { amount: { type: 'number', maximum: 100 } } },
    });
    const guards = config.guardrails ?? [];
    expect(guards.map((g) => [g.name, g.on])).toEqual([
      ['no-secrets', 'output'],
      ['polite', 'input'],
      ['pii', 'tool'],
      ['short', 'input'],
      ['args', 'tool'],
    ]);
    expect(guards[1]?.parallel).toBe(true);
    expect(guards[2]?.tools).toEqual(['fs__*']);
    expect(guards[3]?.timeoutMs).toBe(2000);
    const short = await guards[3]!.check({ phase: 'prompt', text: 'x'.repeat(21), history: [] }, context());
    expect(short.verdict).toBe('block');
    const polite = await guards[1]!.check({ phase: 'prompt', text: 'you idiot', history: [] }, context());
    expect(polite.verdict).toBe('block');
    const fine = await guards[1]!.check({ phase: 'prompt', text: 'hello', history: [] }, context());
    expect(fine.verdict).toBe('pass');
  });

  test('toolPolicy is passed to the session as written (a string of globs as a list)', async () => {
    const config = await configOf({
      'a.ai': agent(
        [
          'toolPolicy:',
          '  default: deny',
          '  rules:',
          '    - { name: big-payments, tools: http__post, when: "amount > `100`", decision: ask, reason: over 100 }',
          '    - { tools: "fs__Read*, fs__Grep", decision: allow }',
        ].join('\n'),
      ),
    });
    expect(config.toolPolicy).toEqual({
      default: 'deny',
      rules: [
        {
          name: 'big-payments',
          tools: ['http__post'],
          when: 'amount > `100`',
          decision: 'ask',
          reason: 'over 100',
        },
        { tools: ['fs__Read*', 'fs__Grep'], decision: 'allow' },
      ],
    });
  });

  test('no guardrails and no policy: the session config has neither key', async () => {
    const config = await configOf({ 'a.ai': agent('maxTurns: 2') });
    expect('guardrails' in config).toBe(false);
    expect('toolPolicy' in config).toBe(false);
  });

  test('wrong entries are refused at load with file, line and what is allowed', async () => {
    const problems = await problemsOf({
      'a.ai': agent(
        [
          'guardrails:',
          '  - { name: a, on: inputs, kind: regex, pattern: x }',
          '  - { name: b, on: input, kind: regexp, pattern: x }',
          '  - { name: c, on: input, kind: words, pattern: x }',
          '  - { name: d, on: input, kind: max_length }',
          '  - { name: e, on: output, kind: pii, detect: [ssn] }',
          '  - { name: f, on: output, kind: regex, pattern: x, action: rewrite }',
          'toolPolicy:',
          '  rules:',
          '    - { tools: x, decision: maybe }',
        ].join('\n'),
      ),
    });
    expect(problems).toEqual([
      {
        file: 'a.ai',
        line: 4,
        message: '`guardrails[0].on` must be one of input, output, tool, got "inputs"; did you mean `input`?',
      },
      {
        file: 'a.ai',
        line: 5,
        message:
          '`guardrails[1].kind` must be one of regex, words, pii, max_length, json_schema, model, got "regexp"; did you mean `regex`?',
      },
      {
        file: 'a.ai',
        line: 8,
        message: '`guardrails[4].detect[0]` must be one of email, phone, card, iban, api_key, got "ssn"',
      },
      {
        file: 'a.ai',
        line: 9,
        message: '`guardrails[5].action` must be one of block, redact, deny, require, got "rewrite"',
      },
      {
        file: 'a.ai',
        line: 12,
        message: '`toolPolicy.rules[0].decision` must be one of allow, deny, ask, got "maybe"',
      },
    ]);
    // Once the shape is right, each kind's own options are checked.
    const kinds = await problemsOf({
      'a.ai': agent(
        [
          'guardrails:',
          '  - { name: c, on: input, kind: words, pattern: x }',
          '  - { name: d, on: input, kind: max_length }',
          '  - { name: e, on: output, kind: json_schema }',
          '  - { name: d, on: output, kind: max_length, max: 3 }',
          '  - { name: t, on: input, kind: max_length, max: 3, tools: [x] }',
          '  - { name: p, on: tool, kind: pii, action: deny }',
          '  - { name: r, on: output, kind: regex, pattern: "(?<=a)b" }',
        ].join('\n'),
      ),
    });
    expect(kinds).toEqual([
      {
        file: 'a.ai',
        line: 4,
        message:
          'guardrail `c` (kind words) does not take `pattern`; its options are `blocked`, `required`, `caseSensitive`, `action`',
      },
      { file: 'a.ai', line: 5, message: 'guardrail `d` (kind max_length) needs `max`' },
      { file: 'a.ai', line: 6, message: 'guardrail `e` (kind json_schema) needs `schema` or `schemaRef`' },
      {
        file: 'a.ai',
        line: 8,
        message: 'guardrail `t` (kind max_length): `tools` is for `on: tool` only, a list of tool-name globs',
      },
      { file: 'a.ai', line: 9, message: 'guardrail `p` (kind pii): `action` must be one of redact, block' },
      expect.objectContaining({ line: 10 }),
    ]);
    expect(kinds[5]).toMatchObject({ file: 'a.ai', line: 10 });
    expect(kinds[5]?.message).toMatch(/^guardrail `r` \(kind regex\): .*RE2/);
  });

  test('a toolPolicy condition that cannot compile is a load error at its line, as a run would find it', async () => {
    const problems = await problemsOf({
      'a.ai': agent(
        [
          'toolPolicy:',
          '  rules:',
          '    - { tools: http__get, decision: allow }',
          '    - tools: http__post',
          '      when: amount > 100',
          '      decision: ask',
        ].join('\n'),
      ),
    });
    expect(problems).toHaveLength(1);
    // The `when:` line (the frontmatter starts at line 2).
    expect(problems[0]).toMatchObject({ file: 'a.ai', line: 7 });
    expect(problems[0]?.message).toContain(
      'toolPolicy.rules[1].when "amount > 100" is not a valid condition',
    );
    expect(problems[0]?.message).toContain('amount > `100`');
  });

  test('a json_schema guardrail whose schema file is missing or not a schema names the line', async () => {
    const problems = await problemsOf({
      'a.ai': agent(
        [
          'guardrails:',
          '  - { name: gone, on: tool, kind: json_schema, schemaRef: ./gone.json }',
          '  - name: bad',
          '    on: output',
          '    kind: json_schema',
          '    schema: { type: objekt }',
        ].join('\n'),
      ),
    });
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatchObject({ file: 'a.ai', line: 4 });
    expect(problems[0]?.message).toMatch(/^schema file `\.\/gone\.json` does not exist/);
    expect(problems[1]).toMatchObject({ file: 'a.ai', line: 8 });
    expect(problems[1]?.message).toMatch(/guardrail `bad` \(kind json_schema\)'s `schema`/);
  });
});

describe('model-judged guardrails', () => {
  const judged = agent('guardrails:\n  - { name: judge, on: output, kind: model, agent: ./judge.ai }');

  test('a missing judge file is a load error at the line that names it', async () => {
    const problems = await problemsOf({ 'a.ai': judged });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ file: 'a.ai', line: 4 });
    expect(problems[0]?.message).toMatch(/^guardrail judge file `\.\/judge\.ai` does not exist/);
  });

  test('a judge that answers markdown, or has its own schema without verdict and reason, is refused', async () => {
    expect(await problemsOf({ 'a.ai': judged, 'judge.ai': agent('output: markdown') })).toEqual([
      {
        file: 'a.ai',
        line: 4,
        message:
          'guardrail judge file `./judge.ai` must answer json { verdict: pass | block, reason } (its `output.format` is markdown): remove `output` or make it json',
      },
    ]);
    const schema =
      'output:\n  format: json\n  schema: { type: object, properties: { ok: { type: boolean } } }';
    const problems = await problemsOf({ 'a.ai': judged, 'judge.ai': agent(schema) });
    expect(problems[0]?.message).toMatch(/has an output schema that does not ask for \{ verdict/);
  });

  test('the judge runs as a child session on the text: its verdict, reason, cost and op tree', async () => {
    const config = await configOf({ 'a.ai': judged, 'judge.ai': agent('description: Judges answers') }, [
      finalReport(
        { verdict: 'block', reason: 'rule 2: no medical advice' },
        { answer: { usage: { inputTokens: 50, outputTokens: 7 } } },
      ),
    ]);
    const guard = config.guardrails?.[0];
    expect(guard).toMatchObject({ name: 'judge', on: 'output', phases: ['report'] });
    const verdict = await guard!.check(
      {
        phase: 'report',
        text: 'take two pills',
        report: { status: 'success', format: 'markdown', content: 'x', ts: 1 },
      },
      context(),
    );
    expect(verdict.verdict).toBe('block');
    expect(verdict.reason).toBe('rule 2: no medical advice');
    const llm = (verdict.accounting ?? []).filter((entry) => entry.type === 'llm');
    expect(llm).toHaveLength(1);
    expect(llm[0]).toMatchObject({
      agentPath: 'a.guardrail:judge',
      tokens: { inputTokens: 50, outputTokens: 7 },
    });
    expect(verdict.opTree).toMatchObject({ kind: 'session', totals: { llmCalls: 1, inputTokens: 50 } });
  });

  test('a judge that fails is the check throwing (the guardrail error), and an aborted signal stops it', async () => {
    const config = await configOf({ 'a.ai': judged, 'judge.ai': agent('maxTurns: 1') }, [
      finalReport({ verdict: 'maybe', reason: 'unsure' }),
      finalReport({ verdict: 'maybe', reason: 'unsure' }),
      finalReport({ verdict: 'maybe', reason: 'unsure' }),
    ]);
    const guard = config.guardrails![0]!;
    const subject = {
      phase: 'report' as const,
      text: 'anything',
      report: { status: 'success' as const, format: 'markdown' as const, content: 'x', ts: 1 },
    };
    await expect(guard.check(subject, context())).rejects.toThrow(/^judge judge\.ai failed \(EXIT-/);
    const aborted = new AbortController();
    aborted.abort();
    await expect(guard.check(subject, { ...context(), signal: aborted.signal })).rejects.toThrow(
      /judge judge\.ai failed|abort/i,
    );
  });
});
