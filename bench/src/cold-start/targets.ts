// Issue 42's cold-start targets: `agent run` to its first model request and `agent-server` to
// its first good health answer, each in ms above `node -e ''` run back to back with it.
import { formatSpread, spread } from '../harness/measure.js';
import { upperBoundVerdict } from '../harness/targets.js';
import type { BenchTarget } from '../harness/types.js';
import type { PackageTime } from './cpu-profile.js';

export const CLI_TARGET_MS = 150;
export const SERVER_TARGET_MS = 300;

/** Each run's time minus the `node -e ''` run of the same alternation: the pairs cancel drift in load. */
export function aboveFloor(times: readonly number[], floor: readonly number[]): number[] {
  return times.map((time, index) => time - floor[index]!);
}

/** The packages that took the most CPU in a profile (Node's own code and V8's buckets left out). */
export function topPackages(profile: readonly PackageTime[], count = 5): string {
  return profile
    .filter((entry) => entry.name !== 'node internals' && !entry.name.startsWith('('))
    .slice(0, count)
    .map((entry) => `${entry.name} ${entry.ms.toFixed(0)} ms`)
    .join(', ');
}

interface TargetInput {
  target: string;
  limitMs: number;
  above: readonly number[];
  profile: readonly PackageTime[];
  profileTable: string;
}

function coldTarget({ target, limitMs, above, profile, profileTable }: TargetInput): BenchTarget {
  const measured = spread(above);
  const verdict = upperBoundVerdict(measured, limitMs);
  const row: BenchTarget = {
    target,
    limit: `<= ${limitMs} ms above \`node -e ''\``,
    measured: `${formatSpread(measured)} ms`,
    verdict,
  };
  if (verdict === 'met') return row;
  const top = profile.length === 0 ? 'no profile in a quick run' : `top packages: ${topPackages(profile)}`;
  return {
    ...row,
    why: `${verdict === 'noise' ? 'the spread crosses the bound on this shared machine' : 'over the bound'}; CPU until exit by package (${profileTable}, --cpu-prof): ${top}`,
  };
}

export function coldStartTargets(input: {
  cliAbove: readonly number[];
  cliProfile: readonly PackageTime[];
  serverAbove: readonly number[];
  serverProfile: readonly PackageTime[];
}): BenchTarget[] {
  return [
    coldTarget({
      target: '`agent run`: spawn to first model request',
      limitMs: CLI_TARGET_MS,
      above: input.cliAbove,
      profile: input.cliProfile,
      profileTable: "the cold-start report's `agent run` profile table",
    }),
    coldTarget({
      target: '`agent-server`: spawn to its first good `/health`',
      limitMs: SERVER_TARGET_MS,
      above: input.serverAbove,
      profile: input.serverProfile,
      profileTable: "the cold-start report's `agent-server` profile table",
    }),
  ];
}
