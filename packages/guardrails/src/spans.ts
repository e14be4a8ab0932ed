/** A found piece of text: `[start, end)` UTF-16 indices and what it is (for redaction). */
export interface Span {
  start: number;
  end: number;
  kind: string;
}

/** `text` with each span replaced by `[REDACTED:<kind>]`; spans sorted, not overlapping. */
export function redactSpans(text: string, spans: readonly Span[]): string {
  let out = '';
  let at = 0;
  for (const span of spans) {
    out += `${text.slice(at, span.start)}[REDACTED:${span.kind}]`;
    at = span.end;
  }
  return out + text.slice(at);
}

/** Spans in text order, keeping the first (longest at one start) of any that overlap. */
export function disjointSpans(spans: Span[]): Span[] {
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: Span[] = [];
  let end = -1;
  for (const span of spans) {
    if (span.start < end) continue;
    kept.push(span);
    end = span.end;
  }
  return kept;
}

/** `2 email, 1 card`: how many spans of each kind, never what they held. */
export function countKinds(spans: readonly Span[]): string {
  const counts = new Map<string, number>();
  for (const span of spans) counts.set(span.kind, (counts.get(span.kind) ?? 0) + 1);
  return [...counts].map(([kind, count]) => `${count} ${kind}`).join(', ');
}
