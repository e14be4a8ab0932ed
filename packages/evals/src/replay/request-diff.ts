import { createTwoFilesPatch } from 'diff';

/** A diff longer than this many lines is cut (the rest counted), so one divergence stays readable. */
export const MAX_DIFF_LINES = 400;

/** A unified diff of two texts (`recorded` and `replayed`), 3 lines of context, bounded. */
export function unifiedDiff(recorded: string, replayed: string, name: string): string {
  const patch = createTwoFilesPatch(`recorded ${name}`, `replayed ${name}`, recorded, replayed, '', '', {
    context: 3,
  });
  // The first line is the `Index:`-less `===` separator createTwoFilesPatch writes; keep from `---`.
  const lines = patch.split('\n');
  const start = lines.findIndex((line) => line.startsWith('--- '));
  const body = lines.slice(Math.max(start, 0)).filter((line, i, all) => i < all.length - 1 || line !== '');
  if (body.length <= MAX_DIFF_LINES) return body.join('\n');
  return [...body.slice(0, MAX_DIFF_LINES), `... ${body.length - MAX_DIFF_LINES} more lines`].join('\n');
}

/** `+a -b` line counts of a unified diff, for one-line messages. */
export function diffStat(diff: string): string {
  let added = 0;
  let removed = 0;
  for (const line of diff.split('\n')) {
    if (line.startsWith('+') && !line.startsWith('+++ ')) added += 1;
    else if (line.startsWith('-') && !line.startsWith('--- ')) removed += 1;
  }
  return `+${added} -${removed} lines`;
}
