import { compileSearchPattern, type SearchPattern } from '@agent/schema';
import { disjointSpans, type Span } from '../spans.js';
import { ibanValid, luhnValid } from './checksums.js';

/** The kinds of personal data and secrets `piiGuardrail` finds. */
export type PiiKind = 'email' | 'phone' | 'card' | 'iban' | 'api_key';

export const PII_KINDS: readonly PiiKind[] = ['email', 'phone', 'card', 'iban', 'api_key'];

/**
 * A detector: an RE2 pattern that finds candidates (linear time each), then `accept`, which
 * looks only at the candidate and its two neighbouring characters (constant work per
 * candidate) and answers the span to report, or undefined for a near miss (a number that
 * fails Luhn, an IBAN that fails mod-97, a token glued to a longer word).
 */
interface Detector {
  pattern: string;
  accept(text: string, start: number, end: number): { start: number; end: number } | undefined;
}

const WORD = /[A-Za-z0-9_]/;
const DIGIT = /[0-9]/;

/** The candidate stands alone: no word character right before or after it. */
function standsAlone(text: string, start: number, end: number, glue = WORD): boolean {
  return !glue.test(text.charAt(start - 1)) && !glue.test(text.charAt(end));
}

const span = (start: number, end: number) => ({ start, end });

/**
 * The longest Luhn-valid card number in a candidate, starting and ending at its digit groups
 * (`Order 3 4111 1111 1111 1111` holds one after its first group). A candidate has at most
 * 19 groups, so this is constant work per candidate.
 */
function cardWithin(text: string, start: number, end: number): { start: number; end: number } | undefined {
  const groups = [...text.slice(start, end).matchAll(/[0-9]+/g)].map((group) => ({
    start: start + (group.index ?? 0),
    end: start + (group.index ?? 0) + group[0].length,
  }));
  for (let first = 0; first < groups.length; first++) {
    for (let last = groups.length - 1; last >= first; last--) {
      const from = groups[first]?.start ?? start;
      const to = groups[last]?.end ?? end;
      const digits = text.slice(from, to).replace(/[ -]/g, '');
      if (digits.length < 13) break;
      if (digits.length > 19 || !/^[2-6]/.test(digits) || /^(\d)\1+$/.test(digits)) continue;
      if (luhnValid(digits)) return span(from, to);
    }
  }
  return undefined;
}

const DETECTORS: Readonly<Record<PiiKind, Detector>> = {
  email: {
    pattern: '[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\\.[A-Za-z0-9-]+)*\\.[A-Za-z]{2,24}',
    accept: (text, start, end) => {
      const at = text.indexOf('@', start);
      const local = text.slice(start, at);
      if (local.length > 64 || local.startsWith('.') || local.endsWith('.')) return undefined;
      return standsAlone(text, start, end, /[A-Za-z0-9]/) ? span(start, end) : undefined;
    },
  },
  card: {
    // 13 to 19 digits, in groups split by single spaces or dashes; issuers' numbers start 2-6.
    pattern: '[2-6](?:[ -]?[0-9]){12,18}',
    accept: (text, start, end) => {
      if (!standsAlone(text, start, end)) return undefined;
      return cardWithin(text, start, end);
    },
  },
  iban: {
    // Country, check digits, then the account in groups of up to four (spaces optional).
    pattern: '[A-Z]{2}[0-9]{2}(?: ?[A-Z0-9]{1,4}){3,8}',
    accept: (text, start, end) => {
      if (WORD.test(text.charAt(start - 1))) return undefined;
      // The pattern may have taken a word after the IBAN (`... 00 AND`): try without it.
      let candidate = text.slice(start, end);
      for (let tries = 0; tries < 3 && candidate.length >= 15; tries++) {
        const stop = start + candidate.length;
        if (!WORD.test(text.charAt(stop)) && ibanValid(candidate.replace(/ /g, ''))) return span(start, stop);
        const space = candidate.lastIndexOf(' ');
        if (space < 0) return undefined;
        candidate = candidate.slice(0, space);
      }
      return undefined;
    },
  },
  phone: {
    // E.164 (`+` and 7-15 digits, optionally spaced), a bracketed area code, a leading trunk
    // `0`, or the NANP 3-3-4 grouping: never a bare run of digits.
    pattern:
      '\\+[1-9](?:[ .-]?\\(?[0-9]\\)?){6,14}|\\([0-9]{2,5}\\) ?[0-9]{3,4}[ .-]?[0-9]{3,4}|0[0-9]{1,4}[ /-][0-9]{3,4}[ -]?[0-9]{3,4}|[0-9]{3}-[0-9]{3}-[0-9]{4}|[0-9]{3}\\.[0-9]{3}\\.[0-9]{4}',
    accept: (text, start, end) => {
      if (DIGIT.test(text.charAt(start - 1)) || !standsAlone(text, start, end)) return undefined;
      const digits = text.slice(start, end).replace(/[^0-9]/g, '').length;
      return digits >= 7 && digits <= 15 ? span(start, end) : undefined;
    },
  },
  api_key: {
    pattern: [
      'sk-ant-[A-Za-z0-9_-]{20,}', // Anthropic
      'sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}', // OpenAI
      '[sr]k_(?:live|test)_[A-Za-z0-9]{16,}', // Stripe
      '(?:AKIA|ASIA)[0-9A-Z]{16}', // AWS access key id
      'gh[pousr]_[A-Za-z0-9]{36,}', // GitHub tokens
      'github_pat_[A-Za-z0-9_]{22,}', // GitHub fine-grained
      'xox[abpr]-[A-Za-z0-9-]{10,}', // Slack
      'AIza[0-9A-Za-z_-]{35}', // Google API key
      'eyJ[A-Za-z0-9_-]{5,}\\.eyJ[A-Za-z0-9_-]{5,}\\.[A-Za-z0-9_-]{10,}', // JWT
      '[Bb]earer[ \\t]+[A-Za-z0-9._~+/-]{16,}=*', // an Authorization header's token
    ].join('|'),
    accept: (text, start, end) => {
      if (!standsAlone(text, start, end, /[A-Za-z0-9_-]/)) return undefined;
      const token = text.slice(start, end);
      if (!/^[Bb]earer/.test(token)) return span(start, end);
      // Only the token is a secret: `Bearer ` stays, so the redacted header still reads.
      const at = token.search(/[ \t][^ \t]/) + 1;
      return /[0-9]/.test(token.slice(at)) ? span(start + at, end) : undefined;
    },
  },
};

/** A compiled detector per kind, compiled on first use and shared (they are pure). */
const compiled = new Map<PiiKind, SearchPattern>();

function matcherOf(kind: PiiKind): SearchPattern {
  let matcher = compiled.get(kind);
  if (matcher === undefined) {
    matcher = compileSearchPattern(DETECTORS[kind].pattern);
    compiled.set(kind, matcher);
  }
  return matcher;
}

/**
 * The spans of `kinds` in `text` in text order (where two overlap, the earlier, longer one),
 * at most `limit` + 1 per kind, in RE2 time (linear).
 */
export function findPii(text: string, kinds: readonly PiiKind[], limit: number): Span[] {
  const found: Span[] = [];
  for (const kind of kinds) {
    const { accept } = DETECTORS[kind];
    let count = 0;
    for (const match of matcherOf(kind).matches(text)) {
      const accepted = accept(text, match.start, match.end);
      if (accepted === undefined) continue;
      found.push({ ...accepted, kind });
      if (++count > limit) break;
    }
  }
  return disjointSpans(found);
}
