// The agent loop side by side: the same scripted model server, the same tool, the same answer,
// played to a raw `openai` loop, @agent/core and the frameworks users would pick instead.
// The measuring machinery is in `../agent-loop/` (README there: bench/README.md).

import { CORE_ID, CORE_TRACED_ID, contenders, RAW_LOOP_ID } from '../agent-loop/contenders/index.js';
import { decompositionTable } from '../agent-loop/decomposition-table.js';
import { figuresOf } from '../agent-loop/figures.js';
import {
  type HeapBreakdown,
  heapBreakdownLine,
  heapBreakdownOf,
  heapBreakdownTable,
} from '../agent-loop/heap-breakdown.js';
import {
  type AgentLoopPlan,
  type ContenderData,
  measureContenders,
  type ProfileData,
  profileContender,
} from '../agent-loop/orchestrate.js';
import { CALLS_PER_TURN, FINAL_ANSWER, INSTRUCTIONS, MODEL } from '../agent-loop/script.js';
import {
  code,
  contendersTable,
  figureTables,
  peerTargets,
  profileTables,
  type ReportInput,
  type RunsText,
  ratioTable,
  targetsTable,
  tracingTable,
} from '../agent-loop/tables.js';
import {
  agentLoopTargets,
  CPU_X_RAW_LOOP,
  CPU_X_RAW_LOOP_XML,
  contendersToProfile,
  explainTargets,
  HEAP_ABOVE_RAW_LOOP_KB,
  heapTargetMissed,
  TRACED_X_UNTRACED,
} from '../agent-loop/targets.js';
import { type TokenData, tokenChecks, tokenTable, tokenTarget } from '../agent-loop/token-table.js';
import { versionsOf } from '../agent-loop/versions.js';
import { formatNumber } from '../harness/measure.js';
import type { BenchCheck, BenchSuite, SuiteResult } from '../harness/types.js';

/** Sessions held for the heap snapshots that explain a missed heap target. */
const HEAP_SNAPSHOT_SESSIONS = 200;

const FULL: AgentLoopPlan = {
  cpu: [
    { turns: 1, sessions: 30, runs: 5, warmup: 2 },
    { turns: 5, sessions: 10, runs: 5, warmup: 1 },
    { turns: 20, sessions: 3, runs: 5, warmup: 1 },
  ],
  memory: { counts: [1, 100, 1000], runs: 5, turns: 1, warmupSessions: 3 },
  tokenTurns: 2,
  profile: { turns: 20, sessions: 20, runs: 1, warmup: 1 },
};

const QUICK: AgentLoopPlan = {
  cpu: [
    { turns: 1, sessions: 2, runs: 1, warmup: 0 },
    { turns: 3, sessions: 1, runs: 1, warmup: 0 },
  ],
  memory: { counts: [1, 10], runs: 1, turns: 1, warmupSessions: 1 },
  tokenTurns: 2,
  profile: { turns: 3, sessions: 1, runs: 1, warmup: 0 },
};

function checksOf(data: readonly ContenderData[], plan: AgentLoopPlan): BenchCheck[] {
  const checks: BenchCheck[] = [];
  for (const entry of data) {
    const cpuSessions = entry.cpu.reduce((sum, c) => sum + c.sessions * (c.warmup + c.runs), 0);
    const cpuFailed = entry.cpu.reduce((sum, c) => sum + c.failures.failed, 0);
    const cpuProblem = entry.cpu.find((c) => c.failures.first !== undefined)?.failures.first;
    checks.push({
      name: `${entry.id}: every session of the CPU phase answered ${FINAL_ANSWER}`,
      ok: cpuFailed === 0 && cpuSessions > 0,
      detail: `${cpuSessions - cpuFailed} of ${cpuSessions} sessions (N=${plan.cpu.map((c) => c.turns).join(', ')})${cpuProblem === undefined ? '' : `; first problem: ${cpuProblem}`}`,
    });
    for (const { count, runs } of entry.memory) {
      const failed = runs.reduce((sum, run) => sum + run.failures.failed, 0);
      const allHeld = runs.every((run) => run.reachedHold);
      const problem = runs.find((run) => run.failures.first !== undefined)?.failures.first;
      checks.push({
        name: `${entry.id}: ${count} concurrent session(s) all in flight together, then answered ${FINAL_ANSWER}`,
        ok: failed === 0 && allHeld && runs.length > 0,
        detail: `${runs.length} run(s), ${failed} failed session(s)${allHeld ? '' : ', the hold was not reached in time'}${problem === undefined ? '' : `; first problem: ${problem}`}`,
      });
    }
  }
  return checks;
}

/** Warnings a contender's process emitted (not printed during the run). */
function warningNotes(data: readonly ContenderData[]): string[] {
  const list: string[] = [];
  for (const entry of data) {
    const seen = new Set<string>();
    for (const cpu of entry.cpu) for (const warning of cpu.warnings) seen.add(warning);
    for (const { runs } of entry.memory)
      for (const run of runs) for (const warning of run.warnings) seen.add(warning);
    if (seen.size > 0) list.push(`Process warnings of ${entry.id}: ${[...seen].join('; ')}.`);
  }
  return list;
}

function runsText(plan: AgentLoopPlan): RunsText {
  const first = plan.cpu[0]!;
  const sessions = plan.cpu.map((c) => `${c.sessions} (N=${c.turns})`).join(', ');
  return {
    cpuRuns: `${first.runs} runs of ${sessions} sessions in a row, after warm-up`,
    memoryRuns: `${plan.memory.runs} runs per K`,
  };
}

/** What issue 20 changed and what it moved, measured when it was made (kept with the figures it explains). */
const ISSUE_20_CHANGES =
  'What issue 20 changed in agent-core, and what each change moved (docs/turn-loop.md, "Cost per turn", has the list). First round: the XML-NEXT notice made compact (about 195 -> 115 o200k tokens per request in the token table) and `agent__task_status` offered only to runs with an event listener (agent-core-unwatched: 113 tokens per request added in all, from about 320); the model answer drained through one promise per stream instead of a stoppable promise and an await per delta (heap allocated per one-turn session in process: 55.5 -> 48.5 MB over 400 sessions); tool calls sharing one abort listener, the notice body a per-process template; none of it moved the CPU per turn beyond the noise of this machine. Second round (agent-core@821d49b is its start, built beside this checkout): per tool call, arguments checked and results sized synchronously (no promise per call when nothing is asynchronous), the execute options and a tool()\'s context as small classes (an object literal with a getter is built the slow way and kept in dictionary mode), a finished call kept as data instead of a closure, log lines built at once and log and accounting events made only for a listener; per session, no listener on the session\'s signal for its tool calls and model attempts (the session tells them itself when it cancels), per-session parts made on first use, the final-slot parser handing its events to a sink instead of an array per delta. Heap allocated per turn at N=20 in process 39.0 -> 30.6 KB (the per-call changes alone); `core-inprocess`, run beside 821d49b in the same run, gives the CPU per turn in the table below it. At N=1 the FINAL tag the seeds require (109 characters streamed around the answer) costs the raw loop itself 0.6-0.7 ms per turn (raw-loop-xml), more than the 1.3x target leaves for everything.';

function notes(plan: AgentLoopPlan, profile: ProfileData | undefined, quick: boolean): string[] {
  const list = [
    `Script: the testkit model server (\`startModelServer\` with a stateless handler, in its own process, no added latency) answers each of N turns with ${CALLS_PER_TURN} calls to a local \`lookup\` tool that returns a fixed string, then the final answer \`${FINAL_ANSWER}\` (for agent-core inside its nonce-tagged XML FINAL slot, taken from the XML-NEXT notice; plain text for the others). The turn is read from the request (tool results in the conversation), so sessions never share state. Text is streamed in 4-character deltas; tool arguments in the testkit's 8-character fragments. Every session's answer is checked.`,
    `Every contender runs in a fresh child process with the same Node flags (\`--import tsx --expose-gc\`), loads only its own framework, and shares one model (\`${MODEL}\`, an OpenAI-family name as an \`openai\` provider user would configure, so agent-core counts tokens with its o200k tokenizer). Runs are interleaved across contenders so drifting machine load spreads over all of them.`,
    `CPU per turn: \`process.cpuUsage()\` of the contender's process over a run of sessions one after another (GC forced before each run, so a run pays for its own garbage), divided by the model calls (N + 1 per session). The server's CPU is in another process and is not counted. Wall time per session is over the same runs.`,
    `Memory: K sessions start at once; the server holds each one's final request (after ${plan.memory.turns} tool turn(s)) until all K wait there, so all K are in flight and idle together; then the contender's process is sampled after two forced GCs. Heap = heapUsed growth over the baseline taken (after GC) just before the K sessions started, divided by K; RSS = growth over the process's idle RSS before its first concurrent run, divided by K (closer to a high-water mark; RSS moves by whole pages as V8 commits and gives back memory, so below K=1,000 it is within that noise and can be negative). Keep-alive sockets opened by earlier runs stay in the pool (server keep-alive raised to 120 s, listen backlog 4096), so from the second run at a given K the heap figure excludes the connection pool; the first run's does not, and shows in the max. At K=1 fixed costs (a socket, lazily built caches) dominate: read K=${Math.max(...plan.memory.counts)}.`,
    'Streamed events per second: the events each contender surfaces to its caller during a session, over the session wall time (same runs as CPU). What counts as an event differs by design (see the contenders table): agent-core does not surface tool-argument deltas but does surface logs, accounting and op-tree events; openai-agents surfaces raw model events plus run items; so read it with the events-per-session column.',
    'Transport: raw-loop, agent-core and openai-agents talk to the server through the official `openai` client (v6, streaming). The Vercel AI SDK cannot: `@ai-sdk/openai` is its own fetch-based provider (same global fetch), used here with `.chat()` so the same Chat Completions route is hit; `generateText` makes non-streamed calls, so it has no events and its CPU figures are for a non-streaming loop.',
    'Peers are configured as their docs recommend: openai-agents with tracing disabled (`setTracingDisabled(true)` and `Runner({ tracingDisabled: true })`, no exporter), `OpenAIChatCompletionsModel`, a zod `tool()`, `maxTurns` N + 2; the AI SDK with a zod `tool()` and `stopWhen: stepCountIs(N + 2)`, telemetry off (its default). agent-core: `defineAgent` + `run` with a `@agent/providers` client (`type: "openai"`), one `tool()` whose `parameters` is a JSON Schema (validated by the core), `maxTurns` N + 2, `output: { format: "text" }`; every `onEvent` call is counted.',
    "Tracing: agent-core runs with no tracer provider registered (tracing off: @agent/telemetry asks once per session and wires nothing). agent-core-traced is the same session traced as @agent/runtime traces its sessions (`traceSession` from @agent/telemetry: spans for the session, each turn, each model and tool call), into a registered `NodeTracerProvider` (AsyncLocalStorage context, always-on sampler) whose `BatchSpanProcessor` hands the spans to an exporter that drops them: what an operator runs, minus the network. It is not a peer; its own target (at most 1.10x agent-core, paired) and the tracing-overhead table set the two side by side. Tracing feeds its spans through the core's `observe` hook, so the traced session sends the model what the untraced one sends.",
    "Decomposition (not peers, not in the targets): agent-core-unwatched is agent-core's session run without an `onEvent` listener, so the default `internalTools` offers it no `agent__task_status` (issue 20: a progress tool only where progress reaches someone). raw-loop-xml is the raw loop carrying agent-core's protocol bytes and nothing else: each request gets the XML-NEXT notice agent-core sends (rendered by @agent/xml-transport with a fresh nonce per session), and the answer comes back inside the FINAL tag (109 characters of wrapper around the 15 of the answer: 31 4-character deltas instead of 4), read out with @agent/xml-transport's `parseFinalSlot`. So raw-loop-xml - raw-loop is what the seeds' transport costs any client, and agent-core-unwatched - raw-loop-xml what the runtime costs on the same requests.",
    `Targets (issue 42, at the top of the report; each a median (min-max) of paired runs made back to back): agent-core's CPU per turn at most ${CPU_X_RAW_LOOP}x the raw loop at N=5 and N=20 and at most ${CPU_X_RAW_LOOP_XML}x raw-loop-xml at every N (tracing off); agent-core-traced at most ${TRACED_X_UNTRACED}x agent-core; heap per concurrent in-flight session at most ${HEAP_ABOVE_RAW_LOOP_KB} KB above the raw loop at the largest K. Below every peer at every N stays in the "Other targets" table. A CPU target not met is explained by a profile of its contender taken in the same run (its top self time is the target's why; the profile tables are in this section).`,
    `Versions: Node ${process.version}; ${versionsOf(['@agent/core', '@agent/providers', '@agent/testkit', 'openai', '@openai/agents', 'ai', '@ai-sdk/openai', 'zod']).join(', ')}.`,
    'The machine may be shared with other work: figures are medians with their min-max spread; compare ratios rather than absolute milliseconds.',
    `Tokens: before the CPU phase each contender plays one session of N=${plan.tokenTurns} alone while the server process reads every request body it receives (\`request-tokens.ts\`) and counts, with the o200k encoding (\`gpt-tokenizer\`, the one @agent/providers counts OpenAI models with), what the request carries beyond the user's own content: system text beyond the instructions, user messages other than the prompt (agent-core's XML-NEXT notice), tools the agent did not define (agent-core's internal tools), and what a contender adds to the definition of the agent's tool beyond the raw loop's (\`strict\`, \`$schema\` and the like). Every contender gets the same instructions (\`${INSTRUCTIONS}\`), prompt and tool. Counts are of the JSON the body carries; the provider renders tools in its own format, so read them as relative sizes. The conversation itself (tool calls, results, answers) is not counted: it is the same for all.`,
  ];
  list.push(ISSUE_20_CHANGES);
  if (profile !== undefined) {
    const perTurn = (ms: number) => `${formatNumber((ms * 1000) / profile.modelCalls, 0)} us`;
    const callers = profile.summary.byProjectCaller
      .filter((c) => c.area !== '')
      .slice(0, 5)
      .map((c) => `${code(c.name)} ${perTurn(c.ms)} (${formatNumber(c.percent, 1)}%)`)
      .join(', ');
    const functions = profile.summary.functions
      .slice(0, 5)
      .map((f) => `${code(f.name)} ${formatNumber(f.percent, 1)}%`)
      .join(', ');
    list.push(
      `Profile (a target was missed): agent-core and the raw loop each ran again in a fresh process under \`node --cpu-prof\` (N=${profile.plan.turns}, ${profile.plan.sessions} sessions); only samples inside the measured runs count (\`bench/src/agent-loop/cpu-profile.ts\`). agent-core busy time per turn ${perTurn(profile.summary.busyMs)} (the profiler samples the main thread only, not GC helper or compiler threads, and counts time the thread was runnable but descheduled, so it does not match the CPU table: compare the two profile columns with each other); top self time: ${functions}. Charged to the nearest @agent function on the stack: ${callers}.`,
    );
  }
  if (quick)
    list.push('Quick run: small N, one run, no K=1,000: it checks that every contender finishes the script.');
  return list;
}

export const agentLoopSuite: BenchSuite = {
  id: 'agent-loop',
  title: 'Agent loop: @agent/core against a raw loop and other frameworks',
  description:
    'N turns of two local tool calls, then a final answer, played by the testkit model server (its own process, no latency) to each contender in its own process: CPU per turn, wall time per session, heap and RSS per concurrent in-flight session, streamed events per second; medians with min-max.',
  async run({ quick }): Promise<SuiteResult> {
    const plan = quick ? QUICK : FULL;
    const started = Date.now();
    const log = (line: string) => console.log(`  ${line}`);
    const data = await measureContenders(contenders, plan, log);
    const figures = data.map(figuresOf);
    const input: ReportInput = {
      contenders,
      figures,
      turns: plan.cpu.map((c) => c.turns),
      counts: plan.memory.counts,
      startMs: new Map(data.map((d) => [d.id, d.startMs])),
    };
    const tokens: TokenData[] = data.map((d) => ({ id: d.id, turns: plan.tokenTurns, requests: d.tokens }));
    const goals = agentLoopTargets(figures, input.turns, input.counts);
    const outcomes = [...peerTargets(input), tokenTarget(tokens)];
    const tracing = tracingTable(input);
    const decomposition = decompositionTable(input);
    const profiles = new Map<string, ProfileData>();
    if (!quick) {
      const profileStarted = Date.now();
      const wanted = contendersToProfile(goals);
      // agent-core's profile is read beside the raw loop's (and the traced one's beside agent-core's).
      if (wanted.includes(CORE_ID)) wanted.push(RAW_LOOP_ID);
      if (wanted.includes(CORE_TRACED_ID) && !wanted.includes(CORE_ID)) wanted.push(CORE_ID);
      for (const id of wanted) profiles.set(id, await profileContender(id, plan.profile));
      if (wanted.length > 0) log(`profiles: ${((Date.now() - profileStarted) / 1000).toFixed(1)} s`);
    }
    // A missed heap target is explained by heap snapshots of held sessions (fewer than the
    // largest K: a snapshot of 1,000 takes minutes to write and read).
    let heap: { core: HeapBreakdown; base: HeapBreakdown } | undefined;
    if (!quick && heapTargetMissed(goals)) {
      const heapStarted = Date.now();
      heap = {
        core: await heapBreakdownOf(CORE_ID, HEAP_SNAPSHOT_SESSIONS),
        base: await heapBreakdownOf(RAW_LOOP_ID, HEAP_SNAPSHOT_SESSIONS),
      };
      log(`heap snapshots: ${((Date.now() - heapStarted) / 1000).toFixed(1)} s`);
    }
    const profile = profiles.get(CORE_ID);
    const traced = profiles.get(CORE_TRACED_ID);
    const tables = [
      contendersTable(input),
      ...figureTables(input, runsText(plan)),
      ...(tracing === undefined ? [] : [tracing]),
      ...(decomposition === undefined ? [] : [decomposition]),
      ratioTable(input),
      tokenTable(tokens),
      targetsTable(outcomes, quick),
      ...(profile === undefined ? [] : profileTables(profile, profiles.get(RAW_LOOP_ID))),
      ...(traced === undefined ? [] : profileTables(traced, profile)),
      ...(heap === undefined ? [] : [heapBreakdownTable(heap.core, heap.base)]),
    ];
    const targets = explainTargets(
      goals,
      profiles,
      heap === undefined ? undefined : heapBreakdownLine(heap.core, heap.base),
    );
    return {
      tables,
      targets,
      notes: [...notes(plan, profile, quick), ...warningNotes(data)],
      checks: [...checksOf(data, plan), ...tokenChecks(tokens)],
      raw: {
        plan,
        durationMs: Date.now() - started,
        contenders: data,
        targets,
        otherTargets: outcomes,
        tokens,
        profiles: Object.fromEntries(profiles),
        heap,
      },
    };
  },
};
