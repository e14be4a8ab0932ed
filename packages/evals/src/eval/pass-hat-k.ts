/**
 * pass^k of one case (tau-bench, arXiv 2406.12045): the chance that k runs drawn from its n
 * runs all passed, C(c,k)/C(n,k) with c of the n passed, an unbiased estimate of p^k. Taken as
 * a product, (c/n)((c-1)/(n-1))..., so no factorial overflows.
 */
export function casePassHatK(passed: number, runs: number, k: number): number {
  if (!Number.isInteger(k) || k < 1 || k > runs) throw new RangeError(`k must be 1..${runs}, got ${k}`);
  let chance = 1;
  for (let index = 0; index < k; index++) chance *= Math.max(0, passed - index) / (runs - index);
  return chance;
}

/** pass^k of a run: the mean over cases of `casePassHatK` (0 for no cases). */
export function passHatK(cases: readonly { passed: number; runs: number }[], k: number): number {
  if (cases.length === 0) return 0;
  const total = cases.reduce((sum, { passed, runs }) => sum + casePassHatK(passed, runs, k), 0);
  return total / cases.length;
}
