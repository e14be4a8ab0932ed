// agent-core's own CPU per turn: the agent-loop script played by a model inside the process
// (no HTTP, no SDK, no provider layer), each measurement in a fresh process. Set beside the
// agent-loop suite's figures, it splits agent-core's cost into the core's own work and what it
// costs around the HTTP path.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { BENCH_DIR } from '../agent-loop/paths.js';
import { warmupSessions } from '../core-inprocess/in-process-model.js';
import { formatSpread, spread } from '../harness/measure.js';
import { otherCheckouts } from '../harness/other-checkouts.js';
import type { BenchCheck, BenchSuite, SuiteResult } from '../harness/types.js';

const CHILD = fileURLToPath(new URL('../core-inprocess/child.ts', import.meta.url));
const run = promisify(execFile);

interface Plan {
  turns: number;
  sessions: number;
  runs: number;
  processes: number;
}
const FULL: Plan[] = [
  { turns: 1, sessions: 400, runs: 5, processes: 3 },
  { turns: 5, sessions: 120, runs: 5, processes: 3 },
  { turns: 20, sessions: 40, runs: 5, processes: 3 },
];
const QUICK: Plan[] = [{ turns: 1, sessions: 20, runs: 1, processes: 1 }];

interface Measured {
  values: number[];
  /** Sessions that ended with the expected answer, of `expected`. */
  answered: number;
  expected: number;
}

/** One fresh process of `checkout` (this one when undefined) playing `plan` once. */
async function measureOnce(plan: Plan, checkout: string | undefined, into: Measured): Promise<void> {
  const { stdout } = await run(
    process.execPath,
    [
      '--import',
      'tsx',
      '--expose-gc',
      CHILD,
      String(plan.turns),
      String(plan.sessions),
      String(plan.runs),
      ...(checkout === undefined ? [] : [checkout]),
    ],
    { cwd: BENCH_DIR, maxBuffer: 1 << 20 },
  );
  const reply = JSON.parse(stdout) as { perTurnUs: number[]; answered: number };
  into.values.push(...reply.perTurnUs);
  into.answered += reply.answered;
  into.expected += warmupSessions(plan.turns) + plan.sessions * plan.runs;
}

const cell = (values: readonly number[]) => formatSpread(spread(values), 0);

export const coreInProcessSuite: BenchSuite = {
  id: 'core-inprocess',
  title: "agent-core's own work: the agent-loop script with an in-process model",
  description:
    'The agent-loop script (N turns of two lookup calls, then the FINAL-tagged answer) played by a model inside the process: CPU per turn of the core alone, with no HTTP, SDK or provider layer.',
  async run({ quick }): Promise<SuiteResult> {
    const plans = quick ? QUICK : FULL;
    // This checkout, then any BENCH_COMPARE checkouts (built), their processes alternated.
    const checkouts = [{ label: 'this checkout', dir: undefined as string | undefined }, ...otherCheckouts()];
    const rows: (string | number)[][] = [];
    const raw: Record<string, Record<string, number[]>> = {};
    const checks: BenchCheck[] = [];
    for (const plan of plans) {
      const measured = checkouts.map((): Measured => ({ values: [], answered: 0, expected: 0 }));
      for (let p = 0; p < plan.processes; p++) {
        for (const [index, checkout] of checkouts.entries())
          await measureOnce(plan, checkout.dir, measured[index]!);
      }
      for (const [index, checkout] of checkouts.entries()) {
        const { values, answered, expected } = measured[index]!;
        checks.push({
          name: `core-inprocess N=${plan.turns} (${checkout.label}): every session answered ${'`'}FINAL-ANSWER-42${'`'}`,
          ok: answered === expected,
          detail: `${answered} of ${expected}`,
        });
        const byN = raw[checkout.label] ?? {};
        byN[`N=${plan.turns}`] = values;
        raw[checkout.label] = byN;
      }
      rows.push([plan.turns, ...measured.map((m) => cell(m.values))]);
    }
    return {
      tables: [
        {
          caption: `agent-core CPU per turn with an in-process model, microseconds (median (min-max); ${plans[0]!.processes} fresh processes x ${plans[0]!.runs} runs per N and checkout, after warm-up, the checkouts' processes alternated)`,
          columns: ['N', ...checkouts.map((c) => c.label)],
          rows,
        },
      ],
      notes: [
        'The model is `inProcessModel` (`bench/src/core-inprocess/in-process-model.ts`): it answers each request with what the agent-loop server would (`planAnswer` of the same script: the same tool calls, the FINAL tag in 4-character deltas) as `ModelStreamEvent`s, so the session does all its own work (notice, context guard with the o200k tokenizer, tool validation and execution, FINAL-slot parsing, events, logs, accounting, op tree) and nothing else.',
        "Read it beside the agent-loop suite: agent-core's CPU per turn there minus this is what the same session costs around the HTTP path (the provider layer, the SDK, and what the core's work does to the rest of the process: garbage, caches); the providers-loop contender there gives the provider layer's share.",
        '`BENCH_COMPARE="label=/path/to/checkout;..."` adds built checkouts of the repository (with `defineAgent` and `run`) as columns: the same child runs their `packages/core` and `packages/providers` builds.',
      ],
      checks,
      raw,
    };
  },
};
