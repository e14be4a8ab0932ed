// Issue 38's cost acceptance for guardrails: a check over a report stays linear in its size,
// and a session streaming a large report through an output guardrail costs the same per MB at
// every size.
import { piiGuardrail, regexGuardrail } from '@agent/guardrails';
import type { Guardrail } from '@agent/protocol';
import { PLANTED_SECRET, SECRET_PATTERN } from '../guardrails/report-text.js';
import {
  type CheckerFigures,
  measureChecker,
  scanTable,
  type TextChecker,
} from '../guardrails/scan-figures.js';
import {
  measureStreamSessions,
  streamChecks,
  streamRatio,
  streamTable,
} from '../guardrails/stream-session.js';
import { formatNumber } from '../harness/measure.js';
import type { BenchCheck, BenchSuite, SuiteResult } from '../harness/types.js';

const KB = 1024;
const FULL = { sizes: [256 * KB, 512 * KB, 1024 * KB], scanRuns: 7, sessionRuns: 5 };
const QUICK = { sizes: [16 * KB, 32 * KB, 64 * KB], scanRuns: 1, sessionRuns: 1 };
/** Time per MB may grow this much from the smallest to the largest size and still count as linear. */
const LINEAR_BOUND = 1.5;

/** A built-in guardrail as the core calls it at the `report` phase: found = it did not pass. */
function reportChecker(label: string, built: Guardrail): TextChecker {
  const context = { signal: new AbortController().signal, sessionId: 'bench', agentPath: 'bench', turn: 1 };
  return {
    label,
    find: async (text) => {
      const report = { status: 'success', format: 'text', content: text, ts: 0 } as const;
      const verdict = await built.check({ phase: 'report', text, report }, context);
      return verdict.verdict !== 'pass';
    },
  };
}

function checkers(): TextChecker[] {
  return [
    reportChecker(
      '`regexGuardrail` (RE2, `action: block`)',
      regexGuardrail({
        name: 'no-secrets',
        on: 'output',
        pattern: SECRET_PATTERN,
        flags: 'i',
        action: 'block',
      }),
    ),
    reportChecker(
      '`piiGuardrail` (every kind, `action: redact`)',
      piiGuardrail({ name: 'pii', on: 'output', action: 'redact' }),
    ),
  ];
}

const NOTES = [
  `Report texts are markdown-ish lines full of near misses (digits, \`@\`, the word key, \`+\`) with one planted finding at the very end (\`${PLANTED_SECRET.split(':')[0]}: …\` and an e-mail address), so every check reads the whole text and must find it (a check that did not is a failed check). The regex is \`${SECRET_PATTERN}\`, case-insensitive; the PII guardrail looks for every kind it knows (e-mail, phone, card, IBAN, API-key shapes). Each is called as the core calls it on a report (its \`report\` phase, with the guardrail's own scan budget).`,
  `Linear cost shows as ms per MB that stays the same at every size; the ratio column divides the largest size's by the smallest's. Target: at most ${LINEAR_BOUND} (a check that re-scanned what it had seen would grow with the square of the size).`,
  'The session table runs `@agent/core` sessions in this process against a model inside it (no HTTP, no provider layer) that streams a report with no finding in it; `without guardrails` is the same session with no guardrail configured. The stream guardrail is the same RE2 pattern with `phases: [stream]`; the core hands it the text not yet shown plus the overlap already shown, batching small deltas, so the characters it reads per character streamed stay bounded (checked: at most 3).',
  'No guardrails configured must not change the per-turn CPU of a session: `agent-loop` and `core-inprocess` measure it (compare a run before and after the guardrails change with `BENCH_COMPARE`).',
];

export const guardrailsSuite: BenchSuite = {
  id: 'guardrails',
  title: 'Guardrails: cost of a check over a large report and of a guarded stream',
  description:
    'A regex guardrail (RE2) and the PII guardrail of `@agent/guardrails` over report texts of 256 KB, 512 KB and 1 MB, timed in one run so its time per MB at each size shows that the cost is linear; and a session streaming a report of each size through an output stream guardrail against the same session without it. Quick: 16-64 KB, one run, checks only.',
  async run({ quick }): Promise<SuiteResult> {
    const plan = quick ? QUICK : FULL;
    const checks: BenchCheck[] = [];
    const scans: CheckerFigures[] = [];
    for (const checker of checkers())
      scans.push(await measureChecker(checker, plan.sizes, plan.scanRuns, checks));
    const sessions = await measureStreamSessions(plan.sizes, plan.sessionRuns, checks);
    streamChecks(sessions, checks);
    if (!quick) {
      for (const scan of scans)
        checks.push({
          name: `${scan.label}: time per MB stays linear (ratio at most ${LINEAR_BOUND})`,
          ok: scan.ratio <= LINEAR_BOUND,
          detail: formatNumber(scan.ratio, 2),
        });
      const guardedRatio = streamRatio(sessions, true);
      checks.push({
        name: `session with a stream guardrail: CPU per MB stays linear (ratio at most ${LINEAR_BOUND})`,
        ok: guardedRatio <= LINEAR_BOUND,
        detail: formatNumber(guardedRatio, 2),
      });
    }
    return {
      tables: [
        scanTable(scans, plan.sizes, plan.scanRuns),
        streamTable(sessions, plan.sizes, plan.sessionRuns),
      ],
      notes: NOTES,
      checks,
      raw: { sizes: plan.sizes, scans, sessions },
    };
  },
};
