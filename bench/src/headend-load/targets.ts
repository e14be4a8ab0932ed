// Issue 42's served-path targets: agent-server's path (the headend serving an agent runner) added p50 and p99 at most 1.25x the pass-through
// proxy's at each burst size, as per-run ratios (headend and proxy back to back) with their spread.
import { pairedRatio } from '../agent-loop/figures.js';
import { formatNumber, spread } from '../harness/measure.js';
import { formatRatio, upperBoundVerdict } from '../harness/targets.js';
import type { BenchTarget } from '../harness/types.js';
import type { BurstFigures } from './orchestrate.js';

/** Added latency (p50 and p99) of the headend at most this times the proxy's. */
export const ADDED_RATIO_TARGET = 1.25;

const PERCENTILES = [
  { name: 'p50', pick: (f: BurstFigures) => f.addedP50 },
  { name: 'p99', pick: (f: BurstFigures) => f.addedP99 },
] as const;

function of(figures: readonly BurstFigures[], contender: string, concurrency: number): BurstFigures[] {
  return figures.filter((f) => f.contender === contender && f.concurrency === concurrency);
}

const medianOf = (figures: readonly BurstFigures[], pick: (f: BurstFigures) => number) =>
  spread(figures.map(pick)).median;

/**
 * Why a burst size's target was not met, from the same runs: the server CPU per session of each
 * contender, which splits agent-server's extra over the proxy into the headend's HTTP path
 * (headend without a session), the core session (headend + core) and the runtime's runner.
 */
function whyMissed(
  figures: readonly BurstFigures[],
  concurrency: number,
  name: string,
  measured: string,
  profileLine: string,
): string {
  const cpu = (contender: string) => medianOf(of(figures, contender, concurrency), (f) => f.cpuMsPerSession);
  const [server, core, bare, proxy] = ['server', 'headend', 'headend-no-session', 'proxy'].map(cpu) as [
    number,
    number,
    number,
    number,
  ];
  const lost = of(figures, 'server', concurrency).reduce((total, f) => total + f.lost + f.failed, 0);
  const ms = (value: number) => `${formatNumber(value, 2)} ms`;
  return [
    `added ${name} ${measured} the proxy's at ${concurrency} streams.`,
    `Server CPU per session (median): agent-server's path ${ms(server)}, headend + core session ${ms(core)}, headend without a session ${ms(bare)}, proxy ${ms(proxy)}:`,
    `the HTTP/SSE path adds ${ms(bare - proxy)}, the core session ${ms(core - bare)} and the runtime's runner ${ms(server - core)} per stream, and every stream of the burst queues for that CPU on the shared cores.`,
    lost > 0 ? `${lost} requests of agent-server's path failed or were lost.` : '',
    profileLine,
  ]
    .filter((part) => part !== '')
    .join(' ');
}

/** The added p50 and p99 targets at each burst size, with their verdicts. */
export function servedTargets(
  figures: readonly BurstFigures[],
  concurrencies: readonly number[],
  /** The profile's summary for a missed target's why (`profileSummaryLine`). */
  profileLine = '',
): BenchTarget[] {
  const targets: BenchTarget[] = [];
  for (const concurrency of concurrencies) {
    const headend = of(figures, 'server', concurrency);
    const proxy = of(figures, 'proxy', concurrency);
    for (const { name, pick } of PERCENTILES) {
      // Run i of each was made back to back (the order flipped every run).
      const ratios = pairedRatio(headend.map(pick), proxy.map(pick)) ?? spread([Number.NaN]);
      const measured = formatRatio(ratios);
      const verdict = Number.isNaN(ratios.median) ? 'missed' : upperBoundVerdict(ratios, ADDED_RATIO_TARGET);
      targets.push({
        target: `Served path (agent-server): added ${name} at ${concurrency} concurrent streams, x pass-through proxy`,
        limit: `<= ${ADDED_RATIO_TARGET}x`,
        measured,
        verdict,
        ...(verdict === 'met' ? {} : { why: whyMissed(figures, concurrency, name, measured, profileLine) }),
      });
    }
  }
  return targets;
}
