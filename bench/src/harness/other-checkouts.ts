/** Another built checkout of the repository, measured beside this one in the same run. */
export interface OtherCheckout {
  label: string;
  dir: string;
}

/**
 * `BENCH_COMPARE="label=/path/to/checkout;label=/path"`: other checkouts (built) that suites
 * measuring the repository's own artifacts (cold start, install size) time or install beside
 * this one, e.g. the commits before each change. Unset: none.
 */
export function otherCheckouts(value = process.env.BENCH_COMPARE): OtherCheckout[] {
  if (value === undefined || value.trim() === '') return [];
  return value.split(';').map((entry) => {
    const at = entry.lastIndexOf('=');
    if (at <= 0) throw new Error(`BENCH_COMPARE: "${entry}" is not label=/path/to/checkout`);
    return { label: entry.slice(0, at).trim(), dir: entry.slice(at + 1).trim() };
  });
}
