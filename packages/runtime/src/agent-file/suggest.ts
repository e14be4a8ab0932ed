import { closest, distance } from 'fastest-levenshtein';

/**
 * The valid name closest to `name`, when it is close enough to be a likely typo: same name in
 * another case, or an edit distance of at most a third of the name's length (at least 2).
 */
export function closestName(name: string, candidates: readonly string[]): string | undefined {
  if (candidates.length === 0) return undefined;
  const lower = name.toLowerCase();
  const sameCase = candidates.find((candidate) => candidate.toLowerCase() === lower);
  if (sameCase !== undefined) return sameCase;
  const best = closest(name, [...candidates]);
  const limit = Math.max(2, Math.floor(name.length / 3));
  return distance(name.toLowerCase(), best.toLowerCase()) <= limit ? best : undefined;
}

/** `; did you mean \`x\`?` or `; allowed: a, b, c` for a message about an unknown name. */
export function suggestion(name: string, candidates: readonly string[], noun = 'allowed'): string {
  const best = closestName(name, candidates);
  if (best !== undefined) return `; did you mean \`${best}\`?`;
  if (candidates.length === 0) return '';
  return `; ${noun}: ${candidates.join(', ')}`;
}
