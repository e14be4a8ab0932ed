/**
 * What a `\p{...}` class costs: RE2 copies its hundreds of rune ranges into every instruction
 * that matches it (`\p{L}{1,1000}` compiles 15 times slower than `.{1,1000}`).
 */
const UNICODE_CLASS_COST = 16;

interface Frame {
  /** Costs of the finished alternatives of this group. */
  alternatives: number[];
  /** Cost of the current alternative so far. */
  sequence: number;
  /** Cost of the last atom (already in `sequence`): what a quantifier repeats. */
  last: number;
  /** A capturing group costs two instructions more. */
  capturing: boolean;
}

/** Instructions every RE2 program has whatever the pattern (fail, match, the unanchored start). */
const PROGRAM_OVERHEAD = 3;

const COUNTED = /^\{(\d+)(,(\d*))?\}/;

/**
 * About how many instructions RE2 compiles `pattern` (ECMAScript syntax) into, estimated from
 * the text alone, before RE2 sees it: RE2's own size formula (its parser's `calcSize`), where a
 * counted repeat `x{n,m}` costs `m` copies of `x`, so nested counted repeats multiply. Compile
 * time and memory, and the time each match takes, grow with this number:
 * `^(a|aa){1,1000}$` is about 7,000 and takes 30 ms to compile; `^[a-z0-9-]{1,64}$` is about 130.
 */
export function patternCost(pattern: string): number {
  const stack: Frame[] = [frame(false)];
  let quantified = false;
  for (let i = 0; i < pattern.length; i++) {
    const top = stack[stack.length - 1]!;
    const ch = pattern[i]!;
    const afterQuantifier = quantified;
    quantified = false;
    if (ch === '\\') {
      const { cost, end } = escapeCost(pattern, i);
      atom(top, cost);
      i = end;
    } else if (ch === '[') {
      const { cost, end } = classCost(pattern, i);
      atom(top, cost);
      i = end;
    } else if (ch === '(') {
      const { capturing, end, flagsOnly } = groupOpening(pattern, i);
      i = end;
      if (!flagsOnly) stack.push(frame(capturing));
    } else if (ch === ')' && stack.length > 1) {
      stack.pop();
      atom(stack[stack.length - 1]!, groupCost(top));
    } else if (ch === '|') {
      top.alternatives.push(top.sequence);
      top.sequence = 0;
      top.last = 0;
    } else if (ch === '*' || ch === '+' || ch === '?') {
      // `?` right after a quantifier makes it lazy: no extra instructions.
      if (ch === '?' && afterQuantifier) continue;
      repeat(top, top.last + (ch === '*' ? 2 : 1));
      quantified = true;
    } else if (ch === '{' && COUNTED.test(pattern.slice(i, i + 24))) {
      const match = COUNTED.exec(pattern.slice(i, i + 24))!;
      const min = Number(match[1]);
      const max = match[2] === undefined ? min : match[3] === '' ? -1 : Number(match[3]);
      repeat(top, max === -1 ? (min === 0 ? 2 : min) * top.last + 1 : max * top.last + (max - min));
      i += match[0].length - 1;
      quantified = true;
    } else {
      atom(top, 1);
    }
  }
  while (stack.length > 1) {
    const open = stack.pop()!;
    atom(stack[stack.length - 1]!, groupCost(open));
  }
  return groupCost(stack[0]!) + PROGRAM_OVERHEAD;
}

function frame(capturing: boolean): Frame {
  return { alternatives: [], sequence: 0, last: 0, capturing };
}

function atom(top: Frame, cost: number): void {
  top.sequence += cost;
  top.last = cost;
}

function repeat(top: Frame, cost: number): void {
  top.sequence += cost - top.last;
  top.last = cost;
}

function groupCost(group: Frame): number {
  const parts = [...group.alternatives, group.sequence];
  const sum = parts.reduce((total, part) => total + part, 0) + (parts.length - 1);
  return Math.max(1, sum) + (group.capturing ? 2 : 0);
}

/** `\p{...}` / `\P{...}` is a large class; `\u{...}`, `\uXXXX`, `\xXX`, `\cX` one character. */
function escapeCost(pattern: string, at: number): { cost: number; end: number } {
  const next = pattern[at + 1];
  if ((next === 'p' || next === 'P' || next === 'u') && pattern[at + 2] === '{') {
    const close = pattern.indexOf('}', at + 3);
    const end = close === -1 ? pattern.length - 1 : close;
    return { cost: next === 'u' ? 1 : UNICODE_CLASS_COST, end };
  }
  if (next === 'u') return { cost: 1, end: at + 5 };
  if (next === 'x') return { cost: 1, end: at + 3 };
  if (next === 'c') return { cost: 1, end: at + 2 };
  return { cost: 1, end: at + 1 };
}

/** A `[...]` class: one instruction, plus the weight of each Unicode class inside. */
function classCost(pattern: string, at: number): { cost: number; end: number } {
  let cost = 1;
  let i = at + 1;
  if (pattern[i] === '^') i++;
  if (pattern[i] === ']') i++; // a `]` first is a literal
  for (; i < pattern.length && pattern[i] !== ']'; i++) {
    if (pattern[i] !== '\\') continue;
    const escaped = escapeCost(pattern, i);
    if (escaped.cost > 1) cost += escaped.cost;
    i = escaped.end;
  }
  return { cost, end: i };
}

/** `(`, `(?:`, `(?<name>`, `(?i:`, or a flags-only `(?i)` that opens no group. */
function groupOpening(pattern: string, at: number): { capturing: boolean; end: number; flagsOnly: boolean } {
  if (pattern[at + 1] !== '?') return { capturing: true, end: at, flagsOnly: false };
  if (pattern[at + 2] === '<' && pattern[at + 3] !== '=' && pattern[at + 3] !== '!') {
    const close = pattern.indexOf('>', at + 3);
    return { capturing: true, end: close === -1 ? pattern.length - 1 : close, flagsOnly: false };
  }
  let i = at + 2;
  while (i < pattern.length && /[a-zA-Z-]/.test(pattern[i]!)) i++;
  if (pattern[i] === ')') return { capturing: false, end: i, flagsOnly: true };
  // `(?:`, `(?i:` and the lookarounds (refused elsewhere) open a group that captures nothing.
  return { capturing: false, end: pattern[i] === ':' ? i : at + 2, flagsOnly: false };
}
