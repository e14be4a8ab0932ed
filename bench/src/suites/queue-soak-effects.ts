// Issue 37's acceptance soak: a face (REST, OpenAI, Anthropic) + 3 workers + a real redis-server;
// every session's agent calls a counting HTTP API of the bench's own (an `@agent/http-tools`
// REST tool) three times and streams its report slowly, while a random worker is SIGKILLed every
// 2-3 s and restarted. Counts lost sessions, repeated calls and their idempotency keys, calls run
// again after their outcome was journaled, and per streaming protocol whether each client got
// its whole report exactly once. Spawns the BUILT agent-server (build apps/server first).
import type { BenchCheck, BenchSuite, BenchTable, SuiteResult } from '../harness/types.js';
import { type Fleet, startFleet } from '../queue-soak/fleet.js';
import { RandomKiller } from '../queue-soak/random-killer.js';
import { countEffects, type EffectCounts } from '../queue-soak-effects/effect-counts.js';
import { type EffectsApi, startEffectsApi } from '../queue-soak-effects/effects-api.js';
import { JournalProbe } from '../queue-soak-effects/journal-probe.js';
import {
  EFFECT_TOOL,
  effectsAnswer,
  effectsRestTools,
  expectedReport,
  type ScriptTiming,
  SESSION_CALLS,
} from '../queue-soak-effects/script.js';
import {
  type FaceUrls,
  runStreamSession,
  STREAM_CLIENTS,
  type StreamOutcome,
} from '../queue-soak-effects/stream-clients.js';
import {
  type KillLanding,
  killLandings,
  type StreamVerdict,
  streamVerdicts,
} from '../queue-soak-effects/verdicts.js';

const WORKERS = 3;
const CONCURRENCY = 4;
const REPORT_TURN = 3;
const TIMING: ScriptTiming = { modelDelayMs: 150, reportPieces: 24, pieceDelayMs: 100 };
const STREAM_MS = TIMING.modelDelayMs + (TIMING.reportPieces + 2) * TIMING.pieceDelayMs;
/** One client session never waits longer than this; the whole load not longer than LOAD_DEADLINE_MS. */
const SESSION_TIMEOUT_MS = 90_000;
const LOAD_DEADLINE_MS = 10 * 60_000;

interface SoakPlan {
  sessions: number;
  killEveryMs: { min: number; max: number };
}

/** BENCH_SOAK_EFFECTS_SESSIONS (default 300; quick 24) and BENCH_SOAK_EFFECTS_KILL_MS (`min-max`, default 2000-3000). */
function planOf(quick: boolean): SoakPlan {
  const sessionsText = process.env.BENCH_SOAK_EFFECTS_SESSIONS;
  const sessions = sessionsText === undefined ? (quick ? 24 : 300) : Number(sessionsText);
  if (!Number.isInteger(sessions) || sessions < 4 || sessions > 5000)
    throw new Error(`BENCH_SOAK_EFFECTS_SESSIONS=${sessionsText}: a whole number of sessions from 4 to 5000`);
  const killText = process.env.BENCH_SOAK_EFFECTS_KILL_MS ?? '2000-3000';
  const match = /^(\d+)-(\d+)$/.exec(killText);
  const min = Number(match?.[1]);
  const max = Number(match?.[2]);
  if (match === null || min < 500 || max < min)
    throw new Error(
      `BENCH_SOAK_EFFECTS_KILL_MS=${killText}: milliseconds between kills as min-max, min at least 500`,
    );
  return { sessions, killEveryMs: { min, max } };
}

const sessionName = (at: number) => `soak-${at}`;
const reportOf = (session: string) => expectedReport(session, TIMING.reportPieces);

/** The sessions, a share per streaming protocol (round robin), WORKERS x CONCURRENCY clients at once. */
async function runLoad(faces: FaceUrls, sessions: number): Promise<StreamOutcome[]> {
  const outcomes: StreamOutcome[] = [];
  const deadline = Date.now() + LOAD_DEADLINE_MS;
  let next = 0;
  const client = async () => {
    while (next < sessions && Date.now() < deadline) {
      const at = next++;
      const session = sessionName(at);
      const kind = STREAM_CLIENTS[at % STREAM_CLIENTS.length] ?? 'rest-sse';
      outcomes.push(await runStreamSession(kind, faces, session, reportOf(session), SESSION_TIMEOUT_MS));
    }
  };
  await Promise.all(Array.from({ length: WORKERS * CONCURRENCY }, client));
  return outcomes;
}

interface Soaked {
  sessions: number;
  ran: number;
  seconds: number;
  kills: number;
  landings: KillLanding;
  lost: number;
  problems: string[];
  jobsLeft: number;
  /** Ops of answered sessions that never reached the API (a harness fault when not 0). */
  callsMissing: number;
  effects: EffectCounts;
  streams: StreamVerdict[];
  journal: { probes: number; probesWithJournal: number; failure?: string };
}

function callsMissing(outcomes: readonly StreamOutcome[], api: EffectsApi): number {
  const seen = new Set(api.requests.map((r) => r.op));
  return outcomes
    .filter((o) => o.answered)
    .flatMap((o) => SESSION_CALLS.map((call) => `${o.session}.${call.suffix}`))
    .filter((op) => !seen.has(op)).length;
}

async function startEffectsFleet(api: EffectsApi): Promise<Fleet> {
  return startFleet({
    workers: WORKERS,
    concurrency: CONCURRENCY,
    delayMs: TIMING.modelDelayMs,
    queueName: 'soak-effects',
    faces: ['rest', 'openai', 'anthropic'],
    script: (session, turn, attempt) => effectsAnswer(session, turn, attempt, TIMING),
    extraConfig: (worker) => effectsRestTools(api.url, worker),
    tools: ['effects'],
  });
}

async function soak(plan: SoakPlan): Promise<Soaked> {
  const api = await startEffectsApi();
  let fleet: Fleet | undefined;
  let killer: RandomKiller | undefined;
  try {
    fleet = await startEffectsFleet(api);
    const faces = fleet.faces as FaceUrls;
    const probe = new JournalProbe(fleet.redisUrl);
    killer = new RandomKiller(fleet, {
      everyMs: plan.killEveryMs,
      afterKill: () => probe.probe(),
      restartInBackground: true,
    });
    const started = Date.now();
    const outcomes = await runLoad(faces, plan.sessions);
    const seconds = (Date.now() - started) / 1000;
    await killer.stop();
    const lost = outcomes.filter((o) => !o.answered);
    return {
      sessions: plan.sessions,
      ran: outcomes.length,
      seconds,
      kills: killer.kills.length,
      landings: killLandings(killer.kills, api.requests, fleet.modelRequests, REPORT_TURN, STREAM_MS),
      lost: lost.length + (plan.sessions - outcomes.length),
      problems: lost.slice(0, 5).map((o) => `${o.session} (${o.client}): ${o.problem ?? ''}`),
      jobsLeft: await fleet.jobsLeft(),
      callsMissing: callsMissing(outcomes, api),
      effects: countEffects(api.requests, api.applied, probe.journaledAt),
      streams: streamVerdicts(outcomes, reportOf),
      journal: {
        probes: probe.probes,
        probesWithJournal: probe.probesWithJournal,
        ...(probe.failure === undefined ? {} : { failure: probe.failure }),
      },
    };
  } finally {
    // Already stopped unless the load failed; then close() also ends the workers still starting.
    void killer?.stop();
    await fleet?.close();
    await api.close();
  }
}

/**
 * The verdicts. `quick` (the CI smoke run, 24 sessions and a handful of kills) does not require
 * the kills to have landed during a tool call and a report stream, nor the probe to have seen a
 * journaled outcome: a short run may miss one by chance; the full run requires both.
 */
function checksOf(s: Soaked, quick: boolean): BenchCheck[] {
  const e = s.effects;
  const streamDetail = s.streams.map((v) => `${v.client} ${v.exactlyOnce}/${v.sessions}`).join(', ');
  return [
    {
      name: 'workers were killed, during tool calls and during report streams',
      ok: quick || (s.landings.duringToolCall > 0 && s.landings.duringReport > 0),
      detail: `${s.kills} kills: ${s.landings.duringToolCall} during a tool call, ${s.landings.duringReport} during a report stream`,
    },
    {
      name: "every answered session's calls reached the API",
      ok: s.callsMissing === 0,
      detail: `${s.callsMissing} missing`,
    },
    {
      name: 'no lost session',
      ok: s.lost === 0,
      detail: `${s.lost} lost of ${s.sessions}${s.lost > 0 ? `: ${s.problems.join(' | ')}` : ''}`,
    },
    { name: 'no job left in the queue', ok: s.jobsLeft === 0, detail: `${s.jobsLeft} left` },
    {
      name: 'the journal probe saw journaled tool outcomes',
      ok: quick || e.journaledOps > 0,
      detail: `${e.journaledOps} calls seen journaled in ${s.journal.probesWithJournal} of ${s.journal.probes} probes${s.journal.failure ? `; ${s.journal.failure}` : ''}`,
    },
    {
      name: 'no call ran again after its outcome was journaled',
      ok: e.rerunAfterJournaled === 0,
      detail: `${e.rerunAfterJournaled} calls`,
    },
    {
      name: "every repeated call carried the first request's idempotency key",
      ok: e.repeatsKeyMissing + e.repeatsKeyChanged === 0,
      detail: `${e.repeatedOps} repeated: ${e.repeatsSameKey} same key, ${e.repeatsKeyMissing} without a key, ${e.repeatsKeyChanged} with a new key`,
    },
    {
      name: 'every streaming client got its whole report exactly once',
      ok: s.streams.every((v) => v.exactlyOnce === v.sessions),
      detail: streamDetail,
    },
  ];
}

function tablesOf(s: Soaked, plan: SoakPlan): BenchTable[] {
  const e = s.effects;
  const every = `${plan.killEveryMs.min / 1000}-${plan.killEveryMs.max / 1000} s`;
  return [
    {
      caption: `Soak with side effects: ${s.sessions} sessions, ${WORKERS} workers, a SIGKILL every ${every}`,
      columns: [
        'seconds',
        'kills',
        'mean s between kills',
        'during a tool call',
        'during a report stream',
        'lost',
        'jobs left',
      ],
      rows: [
        [
          s.seconds.toFixed(1),
          s.kills,
          s.kills === 0 ? '-' : (s.seconds / s.kills).toFixed(1),
          s.landings.duringToolCall,
          s.landings.duringReport,
          s.lost,
          s.jobsLeft,
        ],
      ],
    },
    {
      caption: `Tool calls at the counting API (${SESSION_CALLS.length} per session)`,
      columns: [
        'calls',
        'requests',
        'calls repeated',
        'side effects applied twice or more',
        'repeats with the same key',
        'without a key',
        'with a new key',
        'duplicates left at an API honouring the key',
        'repeats from a re-asked model',
        'run again after an answer',
        'run again after journaled',
        'calls seen journaled',
      ],
      rows: [
        [
          e.ops,
          e.requests,
          e.repeatedOps,
          e.duplicatedEffects,
          e.repeatsSameKey,
          e.repeatsKeyMissing,
          e.repeatsKeyChanged,
          e.duplicatesAtIdempotentApi,
          e.repeatsFromNewAnswer,
          e.rerunAfterAnswered,
          e.rerunAfterJournaled,
          e.journaledOps,
        ],
      ],
    },
    {
      caption: 'Streaming clients: the whole report exactly once?',
      columns: [
        'client',
        'sessions',
        'answered',
        'exactly once',
        'text duplicated',
        'text missing',
        'text different',
        'retracted or errored',
        'told "moved"',
      ],
      rows: s.streams.map((v) => [
        v.client,
        v.sessions,
        v.answered,
        v.exactlyOnce,
        v.duplicated,
        v.missing,
        v.different,
        v.retracted,
        v.moved,
      ]),
    },
  ];
}

const NOTES = [
  `Each session: turn 1 asks for two calls of ${EFFECT_TOOL} (an @agent/http-tools REST tool, POST to the bench's counting API on loopback; the API answers after 250 and 700 ms), turn 2 one call (450 ms), turn 3 streams the report in ${TIMING.reportPieces} pieces ${TIMING.pieceDelayMs} ms apart. ${TIMING.modelDelayMs} ms before each model answer. A model asked again writes new call ids and arguments (its attempt in them), as a real model would.`,
  'The counting API applies every request (it does not deduplicate) and records its Idempotency-Key header: "side effects applied twice or more" is what a plain API suffers, "duplicates left at an API honouring the key" what an API that honours the key still suffers (repeats without the key or with a new one).',
  '"Run again after journaled": after each kill, before the slot restarts, the bench reads every Redis key whose name holds "journal" and notes the calls with a tool_outcome entry; a later request for such a call counts. "Run again after an answer": a call requested again after the API had answered an earlier request of it (the journal is written as the answer arrives, so this bounds the former from above).',
  'Clients: the sessions in turn over OpenAI chat completions (stream), Anthropic messages (stream), REST SSE and the UI message stream (/api/chat), 12 at once. A client got its report exactly once when its stream ended as an answer and the text deltas it received (nothing taken back) are the report, with no retraction or error.',
  "A kill waits for the previous kill's new worker to take jobs (never two workers down at once): on a loaded machine where a worker starts in more than 2-3 s, kills come every start-up time instead (the mean is in the table).",
  'Scale: BENCH_SOAK_EFFECTS_SESSIONS (default 300) and BENCH_SOAK_EFFECTS_KILL_MS (default 2000-3000).',
  'Before the turn journal (the same suite on the code before it, 60 sessions, `BENCH_SOAK_EFFECTS_SESSIONS=60 pnpm bench --quick --only queue-soak-effects`, 2026-11-29): 10 kills, 15 of 60 sessions lost; 18 of 180 calls repeated, all 18 without a key and by a re-asked model (10 after the API had answered), so 18 side effects applied twice even at an API that honours keys; reports exactly once: OpenAI 10/15, Anthropic 9/15, UI stream 11/15 (the others got "the answer streamed so far was withdrawn"), REST SSE 12/15 (3 got `output_retracted` and the retry\'s text).',
  '"Calls repeated" after the journal are calls whose request had started when their worker died and whose outcome was not yet journaled: they ran again with the same key (at-least-once with the same key), which an API that honours the key applies once ("duplicates left" 0).',
];

export const queueSoakEffectsSuite: BenchSuite = {
  id: 'queue-soak-effects',
  title: 'agent-server on a Redis queue: tool side effects and streams across worker deaths',
  description: `Real redis-server, one agent-server process serving REST, OpenAI and Anthropic on the queue, ${WORKERS} worker processes (concurrency ${CONCURRENCY} each) of which a random one is SIGKILLed every 2-3 s and restarted; every session calls a counting HTTP API of the bench's own three times and streams its report slowly to a streaming client of one of four protocols.`,
  async run({ quick }): Promise<SuiteResult> {
    const plan = planOf(quick);
    const soaked = await soak(plan);
    return {
      tables: tablesOf(soaked, plan),
      notes: NOTES,
      checks: checksOf(soaked, quick),
      raw: { plan, soaked },
    };
  },
};
