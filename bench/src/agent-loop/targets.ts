// The agent-loop suite's targets (issue 42), each a paired figure of this run with its verdict;
// a target not met says why from this run's own profile of the contender it is about.
import { formatNumber, type Spread } from '../harness/measure.js';
import { formatRatio, upperBoundVerdict } from '../harness/targets.js';
import type { BenchTarget } from '../harness/types.js';
import { CORE_ID, CORE_TRACED_ID, RAW_LOOP_ID, RAW_LOOP_XML_ID } from './contenders/index.js';
import { type Figures, pairedDifference, pairedRatio } from './figures.js';
import type { ProfileData } from './orchestrate.js';

/** agent-core's CPU per turn over the raw loop's, at N=5 and N=20. */
export const CPU_X_RAW_LOOP = 1.1;
/** agent-core's CPU per turn over the raw loop carrying the same protocol bytes, at N=1, 5 and 20. */
export const CPU_X_RAW_LOOP_XML = 1.05;
/** agent-core's CPU per turn traced into a registered provider, over tracing off. */
export const TRACED_X_UNTRACED = 1.1;
/** Heap per in-flight agent-core session above the raw loop's, KB, at the largest K. */
export const HEAP_ABOVE_RAW_LOOP_KB = 10;

/** One target before its `why`: the contender whose profile explains a miss. */
export interface AgentLoopTarget extends BenchTarget {
  /** The contender to profile when the target is not met (a CPU target), else undefined. */
  profileOf?: string;
  /** The heap target: a miss is explained by heap snapshots (`heap-breakdown.ts`). */
  heapSnapshots?: boolean;
}

function cpuRatioTarget(
  figures: readonly Figures[],
  [id, base]: [string, string],
  n: number,
  limit: number,
): AgentLoopTarget {
  const runs = (of: string) => figures.find((f) => f.id === of)?.cpuPerTurnRuns.get(n);
  const paired = pairedRatio(runs(id), runs(base));
  const target = `CPU per turn, N=${n}: ${id} x ${base} (paired runs)`;
  if (paired === undefined)
    return {
      target,
      limit: `<= ${limit}x`,
      measured: 'n/a',
      verdict: 'missed',
      why: 'not measured in this run',
    };
  return {
    target,
    limit: `<= ${limit.toFixed(2)}x`,
    measured: formatRatio(paired),
    verdict: upperBoundVerdict(paired, limit),
    profileOf: id,
  };
}

function heapTarget(figures: readonly Figures[], k: number): AgentLoopTarget {
  const of = (id: string) => figures.find((f) => f.id === id);
  const above: Spread | undefined = pairedDifference(
    of(CORE_ID)?.heapPerSessionRuns.get(k),
    of(RAW_LOOP_ID)?.heapPerSessionRuns.get(k),
  );
  const target = `Heap per in-flight session above ${RAW_LOOP_ID}, K=${k} (paired runs)`;
  const limit = `<= ${HEAP_ABOVE_RAW_LOOP_KB} KB`;
  if (above === undefined)
    return { target, limit, measured: 'n/a', verdict: 'missed', why: 'not measured in this run' };
  const verdict = upperBoundVerdict(above, HEAP_ABOVE_RAW_LOOP_KB);
  const kb = (id: string) => formatNumber(of(id)?.heapPerSessionKB.get(k)?.median ?? Number.NaN, 1);
  return {
    target,
    limit,
    measured: `${formatNumber(above.median, 1)} KB (${formatNumber(above.min, 1)} to ${formatNumber(above.max, 1)})`,
    verdict,
    ...(verdict === 'met'
      ? {}
      : {
          why: `${CORE_ID} holds ${kb(CORE_ID)} KB per in-flight session, ${RAW_LOOP_ID} ${kb(RAW_LOOP_ID)} KB (medians, K=${k}, the memory table)`,
          heapSnapshots: true,
        }),
  };
}

/** The targets of this run, without `why` for the CPU ones (see `explainTargets`). */
export function agentLoopTargets(
  figures: readonly Figures[],
  turns: readonly number[],
  counts: readonly number[],
): AgentLoopTarget[] {
  const rows: AgentLoopTarget[] = [];
  for (const n of turns.filter((t) => t >= 5))
    rows.push(cpuRatioTarget(figures, [CORE_ID, RAW_LOOP_ID], n, CPU_X_RAW_LOOP));
  for (const n of turns)
    rows.push(cpuRatioTarget(figures, [CORE_ID, RAW_LOOP_XML_ID], n, CPU_X_RAW_LOOP_XML));
  for (const n of turns) rows.push(cpuRatioTarget(figures, [CORE_TRACED_ID, CORE_ID], n, TRACED_X_UNTRACED));
  rows.push(heapTarget(figures, Math.max(...counts)));
  return rows;
}

/** The contenders a profile is wanted of: those of the CPU targets not met. */
export function contendersToProfile(targets: readonly AgentLoopTarget[]): string[] {
  return [
    ...new Set(
      targets.filter((t) => t.verdict !== 'met' && t.profileOf !== undefined).map((t) => t.profileOf!),
    ),
  ];
}

const TOP = 5;

/** Why a CPU target is not met: the top self time of its contender's profile of this run. */
function profileWhy(profile: ProfileData | undefined): string {
  if (profile === undefined) return 'no profile was taken in this run';
  const perTurn = (ms: number) => formatNumber((ms * 1000) / profile.modelCalls, 0);
  const top = profile.summary.functions
    .slice(0, TOP)
    .map((f) => `${f.name} (${f.area}) ${perTurn(f.ms)} us/turn, ${formatNumber(f.percent, 1)}%`)
    .join('; ');
  const callers = profile.summary.byProjectCaller
    .filter((c) => c.area !== '')
    .slice(0, 3)
    .map((c) => `${c.name} ${formatNumber(c.percent, 1)}%`)
    .join(', ');
  return `profile of ${profile.id} (node --cpu-prof, N=${profile.plan.turns}, ${profile.modelCalls} turns, ${perTurn(profile.summary.busyMs)} us/turn busy; tables under "Profile" in this suite's section): top self time ${top}; charged to ${callers}`;
}

/** The targets as reported: a CPU target not met gets its contender's profile as `why`. */
export function explainTargets(
  targets: readonly AgentLoopTarget[],
  profiles: ReadonlyMap<string, ProfileData>,
  /** What the heap snapshots show (`heapBreakdownLine`), for a missed heap target. */
  heapLine?: string,
): BenchTarget[] {
  return targets.map(({ profileOf, heapSnapshots, ...target }) => {
    if (target.verdict === 'met') return target;
    if (heapSnapshots === true)
      return heapLine === undefined ? target : { ...target, why: `${target.why}; ${heapLine}` };
    return target.why !== undefined || profileOf === undefined
      ? target
      : { ...target, why: profileWhy(profiles.get(profileOf)) };
  });
}

/** True when the heap target was missed: the suite then takes heap snapshots to say why. */
export function heapTargetMissed(targets: readonly AgentLoopTarget[]): boolean {
  return targets.some((target) => target.heapSnapshots === true && target.verdict !== 'met');
}
