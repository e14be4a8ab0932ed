import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EvalRunFile } from '@agent/protocol';
import { finalReport, type RecordedRequest, type ScriptedAnswer, startModelServer } from '@agent/testkit';
import { afterAll, describe, expect, onTestFinished, test } from 'vitest';
import { agentFile, isolatedEnv, removeWorkspaces, runCli, workspace } from './helpers.js';

// Issue 40: `agent eval` runs a dataset against an agent file through the real CLI, the cases'
// sessions against the testkit model server over HTTP; the agent is model `big`, the judge
// model `small`, both answered by one handler routed by model name.

afterAll(removeWorkspaces);

const USAGE = { usage: { inputTokens: 100, outputTokens: 20 } };
/** USD per million tokens: a `big` run costs 100e-6 + 40e-6 = 0.00014, a judge run 0.0012. */
const PRICING = { big: { input: 1, output: 2 }, small: { input: 10, output: 10 } };

function firstUserText(request: RecordedRequest): string {
  const message = request.messages.find((entry) => entry.role === 'user');
  return typeof message?.content === 'string' ? message.content : JSON.stringify(message?.content ?? '');
}

/** A workspace whose model server answers `big` with `agent(tag)` and `small` with `judge(tag)`. */
async function evalWorkspace(
  agent: (tag: string) => object,
  judge: (tag: string) => object = () => ({ score: 1, reason: 'fine' }),
  extra = '',
) {
  const server = await startModelServer({
    handler: (request): ScriptedAnswer => {
      const text = firstUserText(request);
      if (request.model === 'small') {
        const tag = /## Input\n(Q\d+)/.exec(text)?.[1] ?? 'none';
        return finalReport(judge(tag), { answer: USAGE });
      }
      const tag = /\b(Q\d+)\b/.exec(text)?.[1] ?? 'none';
      return finalReport(agent(tag), { answer: USAGE });
    },
  });
  onTestFinished(() => server.close());
  const ws = workspace(server, {
    'ask.ai': agentFile(
      `models: test/big\nmaxTurns: 3\n${extra}output:\n  format: json\n  schema:\n    type: object\n    properties:\n      answer: { type: string }\n      value: { type: number }\n    required: [answer, value]`,
    ),
    'judge.ai': agentFile('models: test/small\nmaxTurns: 2', 'You grade answers.'),
  });
  const config = JSON.parse(readFileSync(ws.file('agent.json'), 'utf8'));
  config.providers.test.models = { big: { pricing: PRICING.big }, small: { pricing: PRICING.small } };
  ws.write('agent.json', JSON.stringify(config, null, 2));
  const run = (args: string[]) =>
    runCli(['eval', ...args, '--config', ws.file('agent.json')], {
      cwd: ws.dir,
      env: isolatedEnv(ws),
      timeoutMs: 120_000,
    });
  return { ws, run };
}

/** The 20-case dataset: seven cases fail on purpose, each for one scorer. */
const DATASET = `
scorers:
  - type: schema
    schema: { type: object, properties: { value: { type: number, minimum: 0 } }, required: [answer, value] }
cases:
${[
  ['Q1', 'Paris'],
  ['Q2', 'Rome'],
  ['Q3', 'Madrid'],
  ['Q4', 'Berlin'],
  ['Q5', 'Vienna'],
  ['Q6', 'Oslo'],
  ['Q7', 'Lisbon'],
  ['Q8', 'Dublin'],
]
  .map(
    ([q, city]) =>
      `  - id: ${q}\n    input: "${q}: the capital?"\n    expected: ${city}\n    settings: { scorers: [{ type: equals, path: answer }] }`,
  )
  .join('\n')}
  - { id: Q9, input: "Q9: a greeting", settings: { scorers: [{ type: contains, path: answer, value: hello, ignoreCase: true }] } }
  - { id: Q10, input: "Q10: a greeting", settings: { scorers: [{ type: contains, path: answer, value: hello }] } }
  - { id: Q11, input: "Q11: a greeting", settings: { scorers: [{ type: contains, path: answer, value: hello }] } }
  - { id: Q12, input: "Q12: a date", settings: { scorers: [{ type: regex, path: answer, pattern: '^\\d{4}-\\d{2}-\\d{2}$' }] } }
  - { id: Q13, input: "Q13: a date", settings: { scorers: [{ type: regex, path: answer, pattern: '^\\d{4}-\\d{2}-\\d{2}$' }] } }
  - { id: Q14, input: "Q14: pi", expected: 3.14, settings: { scorers: [{ type: numeric, path: value, tolerance: 0.01 }] } }
  - { id: Q15, input: "Q15: e", expected: 2.72, settings: { scorers: [{ type: numeric, path: value, relTolerance: 0.01 }] } }
  - { id: Q16, input: "Q16: sqrt 2", expected: 1.41, settings: { scorers: [{ type: numeric, path: value, tolerance: 0.01 }] } }
  - { id: Q17, input: "Q17: a long word", settings: { scorers: [{ type: jmespath, expression: 'length(answer) > \`3\`' }] } }
  - { id: Q18, input: "Q18: explain tides", expected: the moon, settings: { scorers: [{ type: judge, agent: judge.ai, criteria: names the moon }] } }
  - { id: Q19, input: "Q19: explain tides", expected: the moon, settings: { scorers: [{ type: judge, agent: judge.ai, threshold: 0.5 }] } }
  - { id: Q20, input: "Q20: anything", settings: { budgets: { costUsd: 0.0001 } } }
`;

const AGENT_ANSWERS: Record<string, object> = {
  Q1: { answer: 'Paris', value: 1 },
  Q2: { answer: 'Rome', value: 1 },
  Q3: { answer: 'Madrid', value: 1 },
  Q4: { answer: 'Berlin', value: 1 },
  Q5: { answer: 'Vienna', value: 1 },
  Q6: { answer: 'Oslo', value: 1 },
  Q7: { answer: 'Lisbon', value: -1 },
  Q8: { answer: 'Cork', value: 1 },
  Q9: { answer: 'Hello there', value: 0 },
  Q10: { answer: 'well, hello', value: 0 },
  Q11: { answer: 'Hi!', value: 0 },
  Q12: { answer: '2026-11-29', value: 0 },
  Q13: { answer: '29/11/2026', value: 0 },
  Q14: { answer: 'pi', value: 3.145 },
  Q15: { answer: 'e', value: 2.719 },
  Q16: { answer: 'root', value: 1.5 },
  Q17: { answer: 'antidisestablishment', value: 0 },
  Q18: { answer: 'The moon pulls the sea.', value: 0 },
  Q19: { answer: 'Wind.', value: 0 },
  Q20: { answer: 'ok', value: 0 },
};

describe('agent eval', () => {
  test('20 cases, seven scorer kinds: the expected cases fail, each for its reason', async () => {
    const { ws, run } = await evalWorkspace(
      (tag) => AGENT_ANSWERS[tag] ?? { answer: 'unknown', value: 0 },
      (tag) =>
        tag === 'Q18' ? { score: 0.9, reason: 'names the moon' } : { score: 0.2, reason: 'wind is wrong' },
    );
    ws.write('cases.yaml', DATASET);
    const table = await run([
      'cases.yaml',
      '--agent',
      'ask.ai',
      '--out',
      'out',
      '--junit',
      'junit.xml',
      '--concurrency',
      '4',
    ]);
    expect(table.stderr).toBe('');
    expect(table.code).toBe(13);
    expect(table.stdout).toMatch(/^case\s+result\s+scores\s+cost\s+turns\s+time$/m);
    expect(table.stdout).toMatch(/^Q1\s+pass\s+schema=1\.00 equals\(answer\)=1\.00\s+\$0\.0001\s+1\s/m);
    expect(table.stdout).toContain('13/20 cases passed; pass^1 0.650; cost $0.0052; tokens 2000 in, 400 out');
    expect(table.stdout).toContain('Q8: equals(answer): expected "Dublin", got "Cork"');
    expect(table.stdout).toContain('Q20: budget: over budget: cost $0.000140 > $0.0001');

    const json = await run(['cases.yaml', '--agent', 'ask.ai', '--out', 'out', '--json']);
    expect(json.code).toBe(13);
    const file = JSON.parse(json.stdout) as EvalRunFile;
    const failed = file.cases.filter((entry) => !entry.passed).map((entry) => entry.id);
    expect(failed).toEqual(['Q7', 'Q8', 'Q11', 'Q13', 'Q16', 'Q19', 'Q20']);
    const reasons = Object.fromEntries(
      file.cases
        .filter((entry) => !entry.passed)
        .map((entry) => [
          entry.id,
          entry.runs[0]!.scores.filter((score) => !score.pass).map((score) => score.scorer),
        ]),
    );
    expect(reasons).toEqual({
      Q7: ['schema'],
      Q8: ['equals(answer)'],
      Q11: ['contains(answer)'],
      Q13: ['regex(answer)'],
      Q16: ['numeric(value)'],
      Q19: ['judge'],
      Q20: ['budget'],
    });
    const q7 = file.cases.find((entry) => entry.id === 'Q7')!.runs[0]!.scores[0]!;
    expect(q7.reason).toContain('/value must be >= 0');
    const judged = file.cases
      .find((entry) => entry.id === 'Q18')!
      .runs[0]!.scores.find((score) => score.scorer === 'judge')!;
    expect(judged).toMatchObject({ score: 0.9, pass: true, reason: 'names the moon' });
    expect(judged.costUsd).toBeCloseTo(0.0012, 8);
    // 20 agent runs at 0.00014 and two judge runs at 0.0012.
    expect(file.summary.costUsd).toBeCloseTo(20 * 0.00014 + 2 * 0.0012, 8);
    expect(file.summary).toMatchObject({ cases: 20, passed: 13, failed: 7, passRate: 0.65, passHatK: 0.65 });
    expect(file.summary.inputTokens).toBe(2000);
    // Each run is a recorded session kept beside the results.
    const record = file.cases[0]!.runs[0]!.record!;
    expect(record).toMatch(/^records\/.+\.json\.gz$/);
    expect(readFileSync(ws.file(join('out', file.runId, record))).length).toBeGreaterThan(0);
    expect(JSON.parse(readFileSync(ws.file(join('out', file.runId, 'results.json')), 'utf8')).runId).toBe(
      file.runId,
    );

    const junit = readFileSync(ws.file('junit.xml'), 'utf8');
    expect(junit).toMatch(/<testcase name="Q8"[^>]*>\s*<failure message="1 of 1 run\(s\) failed"/);
    expect(junit).toMatch(/<testcase name="Q1"[^>]*\/>/);
  });

  test('--repeat 3: a case that passes 2 of 3 runs gives pass^3 its share', async () => {
    let flaky = 0;
    const { ws, run } = await evalWorkspace(
      (tag) => {
        if (tag === 'Q2') flaky++;
        return { answer: tag === 'Q2' && flaky % 3 === 2 ? 'wrong' : 'right', value: 1 };
      },
      undefined,
      'cache: 1h\n',
    );
    ws.write(
      'cases.jsonl',
      [
        '{"id":"steady","input":"Q1 go","expected":"right","settings":{"scorers":[{"type":"equals","path":"answer"}]}}',
        '',
        '{"id":"flaky","input":"Q2 go","expected":"right","settings":{"scorers":[{"type":"equals","path":"answer"}]}}',
      ].join('\n'),
    );
    const result = await run([
      'cases.jsonl',
      '--agent',
      'ask.ai',
      '--repeat',
      '3',
      '--json',
      '--concurrency',
      '1',
    ]);
    expect(result.code).toBe(13);
    const file = JSON.parse(result.stdout) as EvalRunFile;
    expect(flaky).toBe(3); // every run asked the model: no response cache
    expect(file.cases.map((entry) => [entry.id, entry.runs.filter((r) => r.passed).length])).toEqual([
      ['steady', 3],
      ['flaky', 2],
    ]);
    // pass^1 = 5 of 6 runs; pass^3 = mean(C(3,3)/C(3,3), C(2,3)/C(3,3)) = 0.5.
    expect(file.summary.passRate).toBeCloseTo(5 / 6, 10);
    expect(file.summary.passHatK).toBe(0.5);
    const table = await run(['cases.jsonl', '--agent', 'ask.ai', '--repeat', '3', '--concurrency', '1']);
    expect(table.stdout).toMatch(/^flaky\s+FAIL 2\/3/m);
  }, 120_000);

  test('--baseline: a case that passed before and fails now is a regression (exit 13)', async () => {
    let broken = false;
    const { ws, run } = await evalWorkspace((tag) => ({
      answer: broken && tag === 'Q2' ? 'wrong' : 'right',
      value: 1,
    }));
    const scorers = '"settings":{"scorers":[{"type":"equals","path":"answer"}]}';
    ws.write(
      'cases.jsonl',
      `{"id":"a","input":"Q1 go","expected":"right",${scorers}}\n{"id":"b","input":"Q2 go","expected":"right",${scorers}}\n`,
    );
    const before = await run(['cases.jsonl', '--agent', 'ask.ai', '--out', 'runs', '--json']);
    expect(before.code).toBe(0);
    const baseline = join('runs', (JSON.parse(before.stdout) as EvalRunFile).runId, 'results.json');
    broken = true;
    const after = await run(['cases.jsonl', '--agent', 'ask.ai', '--out', 'runs', '--baseline', baseline]);
    expect(after.code).toBe(13);
    expect(after.stdout).toMatch(/against \S+: improved none; regressed b; added 0, removed 0/);
    broken = false;
    const fixed = await run([
      'cases.jsonl',
      '--agent',
      'ask.ai',
      '--out',
      'runs',
      '--baseline',
      baseline,
      '--json',
    ]);
    expect(fixed.code).toBe(0);
    expect((JSON.parse(fixed.stdout) as EvalRunFile).baseline).toMatchObject({
      regressed: [],
      unchanged: ['a', 'b'],
    });
  }, 120_000);

  test.each([
    ['bad.jsonl', '{"input":"Q1"}\n{"input": nope}\n', 'bad.jsonl:2: not JSON'],
    [
      'dup.jsonl',
      '{"id":"x","input":"Q1"}\n{"id":"x","input":"Q2"}\n',
      'dup.jsonl:2: the id "x" is taken by',
    ],
    [
      'keys.jsonl',
      '{"input":"Q1","expect":"typo"}\n',
      'keys.jsonl:1: unknown key "expect"; a case has id, input, expected, settings',
    ],
    [
      're.jsonl',
      '{"input":"Q1","settings":{"scorers":[{"type":"regex","pattern":"(a)\\\\1"}]}}\n',
      're.jsonl:1 (case-1): settings.scorers[0]: pattern',
    ],
    [
      'kind.yaml',
      'cases:\n  - input: Q1\nscorers:\n  - type: fuzzy\n',
      'kind.yaml: scorers[0]: a scorer is an object with type one of schema, equals',
    ],
    ['cases.txt', 'Q1\n', 'the file must end in .jsonl, .yaml or .yml'],
  ])('a bad dataset (%s) is exit 7 with what is wrong', async (name, content, message) => {
    const { ws, run } = await evalWorkspace(() => ({ answer: 'x', value: 1 }));
    ws.write(name, content);
    const result = await run([name, '--agent', 'ask.ai']);
    expect(result.stderr).toContain(message);
    expect(result.code).toBe(7);
  });

  test('usage errors are exit 2', async () => {
    const { ws, run } = await evalWorkspace(() => ({ answer: 'x', value: 1 }));
    ws.write('cases.jsonl', '{"input":"Q1"}\n');
    expect((await run(['cases.jsonl'])).code).toBe(2);
    const repeat = await run(['cases.jsonl', '--agent', 'ask.ai', '--repeat', '0']);
    expect(repeat.code).toBe(2);
    expect(repeat.stderr).toContain('--repeat must be an integer from 1 to 100');
  });
});
