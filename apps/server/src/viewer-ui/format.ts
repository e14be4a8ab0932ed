// Numbers and times as the page shows them (no DOM here: tests run these in Node).

export function fmtTokens(n: number | undefined): string {
  return n === undefined ? '' : n.toLocaleString('en-US');
}

export function fmtCost(usd: number | undefined): string {
  return usd === undefined ? '' : `$${usd.toFixed(usd > 0 && usd < 0.01 ? 5 : 4)}`;
}

export function fmtMs(ms: number | undefined): string {
  if (ms === undefined) return '';
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

export function fmtTime(epoch: number): string {
  return new Date(epoch).toLocaleTimeString('en-GB');
}

/** A share (0-1) as a percentage: `87.5%`. */
export function fmtShare(share: number | undefined): string {
  return share === undefined ? '' : `${(share * 100).toFixed(1).replace(/\.0$/, '')}%`;
}

/** A date and time, for runs that may be days apart. */
export function fmtDateTime(epoch: number): string {
  return new Date(epoch).toLocaleString('en-GB');
}

/** A 0-1 score with two decimals. */
export function fmtScore(score: number): string {
  return score.toFixed(2);
}
