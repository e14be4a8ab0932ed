// Issue 40's cost of recording: the same N-turn session (a REST tool call per turn with a 3 KB
// result, then the report) run through `createAgentRunner` without recording and with it
// (`sessionsDir`), side by side in one run: CPU per turn and its ratio, wall time, the record's
// size per turn and the tapes' share of it, and `replay()` of a recorded 20-turn session.

import type { BenchSuite, SuiteResult } from '../harness/types.js';
import { type ConfigFigures, type ConfigPlan, measureConfig } from '../recording/measure-config.js';
import { PAGE_BYTES } from '../recording/script.js';
import { configChecks, costTable, replayTable, sizeTable } from '../recording/tables.js';
import { MODEL } from '../recording/workspace.js';

/** A plan for every configuration; `batchFor` gives the sessions per batch by N. */
type Plan = Omit<ConfigPlan, 'transport' | 'pages' | 'batch'> & { batchFor: Record<number, number> };

const PAGES = [5, 20];
const FULL: Plan = {
  runs: 25,
  batchFor: { 5: 16, 20: 6 },
  warmup: 4,
  replay: { runs: 9, warmup: 2 },
  sizeSample: 20,
};
const QUICK: Plan = {
  runs: 2,
  batchFor: { 5: 2, 20: 1 },
  warmup: 1,
  replay: { runs: 1, warmup: 0 },
  sizeSample: 3,
};

const NOTES = [
  `The session: N turns each calling one REST tool (\`restTools\`, \`@agent/http-tools\`) on a loopback page API that answers ${PAGE_BYTES} bytes of text, then a turn that commits the report: N + 1 model calls, the "turns" every per-turn figure divides by. The agent file (model \`${MODEL}\`), config and prompt are the same in every row; the recorded runner differs only by the runner option \`sessionsDir\` (a temp dir).`,
  "Two ways to the model, both measured: the in-process `scriptedModel` of `@agent/testkit` through the runner's `clientFactory` isolates the runtime's own cost (no HTTP, SSE or SDK work in the process), so its ratio is the recorder's share of what the runtime itself spends; the testkit model server over HTTP (strict mode) through `@agent/providers`' OpenAI client (the official `openai` package) is the path a user's run takes, its server in this process, so its ratio is diluted by the client, the wire and the server's parsing, as a real deployment's would be by more.",
  "CPU: `process.cpuUsage()` of the whole process over a batch of sessions played one after another on one open runner, the batch ending once its records are on disk (a record is built and gzipped in the background after the run returns: its cost is in the batch), divided by the batch's model calls. The unrecorded and recorded runners are open side by side; each configuration warms both up first, then alternates their batches (order flipped every run); the ratio is the median of the ratios of batches run back to back. Wall time is each session's `run()` as its caller sees it (the record write does not hold it up).",
  "Record size: the gzip file the runtime wrote and its JSON. The tapes' JSON share counts every session node's `tape` (the model calls with their interned messages and tool definitions, and the tool calls with their raw results); their gzip share is what the file loses when the same record is gzipped without them. The rest is the op tree with its payloads, logs and accounting, as before tapes.",
  "Why a record is about 4 times the tool output it carries (about 12 KB of JSON per turn for a 3 KB page): each tool result is in it three times, in the op tree (the tool op's `payload.result`) and twice on the tape (`toolCalls[].result.text`, the provider's raw result, and the tool message interned in `messages`). gzip folds the copies that lie within its 32 KB window, hence the tapes' smaller share of the file at N = 5 than at N = 20.",
  "Replay: `replay()` of `@agent/evals` with `compare: 'requests'` (the strictest comparison: every model request of every session compared as normalised text) on one recorded 20-turn session: it starts its own strict testkit server, runs the agent again with the answers and tool results from the record (no key, no page API call), records that run and compares the two records. The records of both model paths are replayed the same way (a replay always goes over HTTP).",
  'Command: `cd bench && node --import tsx src/run.ts --only recording` (`pnpm bench --only recording`; build the packages first). Quick (`--quick`): 2 batches of 1-2 sessions per variant and one replay, checks only.',
];

async function measure(quick: boolean): Promise<SuiteResult> {
  const plan = quick ? QUICK : FULL;
  const configs: ConfigFigures[] = [];
  for (const transport of ['in-process', 'http'] as const) {
    for (const pages of PAGES) {
      const { batchFor, replay, ...rest } = plan;
      configs.push(
        await measureConfig({
          ...rest,
          transport,
          pages,
          batch: batchFor[pages]!,
          ...(pages === 20 && replay !== undefined ? { replay } : {}),
        }),
      );
    }
  }
  return {
    tables: [costTable(configs), sizeTable(configs), replayTable(configs)],
    notes: NOTES,
    checks: configs.flatMap(configChecks),
    raw: { plan, configs },
  };
}

export const recordingSuite: BenchSuite = {
  id: 'recording',
  title: 'Recording: what session tapes cost, and replaying one',
  description:
    "Issue 40's recorder: the same N-turn session (N = 5 and 20; a REST tool call per turn with a 3 KB result, then the report) through `createAgentRunner`, without recording and with it (`sessionsDir`), side by side in one run, with the model in-process (`scriptedModel`) and over HTTP (testkit server, `openai` client): CPU per turn and the ratio, wall time per session, the record's gzip and JSON bytes per turn and the tapes' share, and `replay()` of a recorded 20-turn session under `compare: 'requests'` with its verdict. Quick: a few sessions and one replay per path.",
  run: ({ quick }) => measure(quick),
};
