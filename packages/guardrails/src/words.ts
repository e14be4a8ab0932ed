import type { Guardrail, GuardrailVerdict } from '@agent/protocol';
import { type BuiltinOptions, build, checkBase, configError, oneOf, resolvePhases } from './options.js';
import { mapSubject, subjectName, TOO_DEEP_REASON } from './subject.js';

export type WordsAction = 'block' | 'deny';

export const WORDS_ACTIONS: readonly WordsAction[] = ['block', 'deny'];

/** Most entries in `blocked` plus `required`, and the longest entry. */
export const MAX_WORD_ENTRIES = 10_000;
export const MAX_WORD_ENTRY_LENGTH = 200;

export interface WordsGuardrailOptions extends BuiltinOptions {
  /** Words or phrases that must not appear (whole words: `ass` never matches `class`). */
  blocked?: readonly string[];
  /** Words or phrases that must appear (not checked at `stream`: a piece never holds the whole text). */
  required?: readonly string[];
  /** Default false: `Secret` and `secret` are the same word. */
  caseSensitive?: boolean;
  /** On a blocked word: `block` (a trip, the default) or `deny` (`tool` only: the call does not run). */
  action?: WordsAction;
}

/** Words: runs of letters, marks, digits and `_` (any script). A fixed pattern, never built from user words. */
const WORD = /[\p{L}\p{M}\p{N}_]+/gu;

/** A phrase as its words, looked up by its first word. */
type PhraseIndex = Map<string, string[][]>;

/**
 * A guardrail on whole words and phrases. The text is cut into words in one pass and each is
 * looked up in a table of the configured ones, so the cost is linear in the text whatever the
 * list holds. Reasons say which entries of the list decided (by position for blocked ones,
 * whose text is what was matched), never the text around them.
 */
export function wordsGuardrail(options: WordsGuardrailOptions): Guardrail {
  const name = checkBase('words', options);
  const caseSensitive = options.caseSensitive ?? false;
  if (typeof caseSensitive !== 'boolean')
    throw configError(name, { field: 'caseSensitive', value: caseSensitive, allowed: 'true or false' });
  const action = oneOf(name, 'action', options.action ?? 'block', WORDS_ACTIONS);
  if (action === 'deny' && options.on !== 'tool')
    throw configError(name, { field: 'action', value: action, allowed: '`deny` only with `on: tool`' });
  const normalize = (word: string) => (caseSensitive ? word : word.toLowerCase());
  const blocked = entries(name, 'blocked', options.blocked, normalize);
  const required = entries(name, 'required', options.required, normalize);
  if (blocked.length + required.length === 0)
    throw configError(name, {
      field: 'blocked',
      value: options.blocked,
      allowed: 'at least one word in `blocked` or `required`',
    });
  if (blocked.length + required.length > MAX_WORD_ENTRIES)
    throw configError(name, {
      field: 'blocked',
      value: blocked.length + required.length,
      allowed: `at most ${MAX_WORD_ENTRIES} entries in \`blocked\` and \`required\` together`,
    });
  const phases = resolvePhases(
    name,
    options,
    required.length > 0
      ? ['prompt', 'report', 'arguments', 'result']
      : ['prompt', 'stream', 'report', 'arguments', 'result'],
    required.length > 0 ? '`required` needs the whole text, which `stream` never holds' : undefined,
  );
  const check = wordsCheck(action, blocked, required, normalize);
  return build(name, options, phases, check);
}

function entries(
  name: string,
  field: string,
  list: unknown,
  normalize: (word: string) => string,
): string[][] {
  if (list === undefined) return [];
  if (!Array.isArray(list))
    throw configError(name, { field, value: list, allowed: 'a list of words or phrases' });
  return list.map((entry, index) => {
    const words = typeof entry === 'string' ? [...entry.matchAll(WORD)].map((m) => normalize(m[0])) : [];
    if (typeof entry !== 'string' || entry.length > MAX_WORD_ENTRY_LENGTH || words.length === 0)
      throw configError(name, {
        field: `${field}[${index}]`,
        value: entry,
        allowed: `a word or phrase of at most ${MAX_WORD_ENTRY_LENGTH} characters with at least one letter or digit`,
      });
    return words;
  });
}

function indexed(phrases: readonly string[][]): PhraseIndex {
  const index: PhraseIndex = new Map();
  for (const words of phrases) {
    const first = words[0] as string;
    index.set(first, [...(index.get(first) ?? []), words]);
  }
  return index;
}

function wordsCheck(
  action: WordsAction,
  blocked: readonly string[][],
  required: readonly string[][],
  normalize: (word: string) => string,
): Guardrail['check'] {
  const blockedIndex = indexed(blocked);
  const requiredIndex = indexed(required);
  return (subject): GuardrailVerdict => {
    const hitBlocked = new Set<string[]>();
    const seenRequired = new Set<string[]>();
    const mapped = mapSubject(subject, (text) => {
      const words = Array.from(text.matchAll(WORD), (m) => normalize(m[0]));
      findPhrases(words, blockedIndex, hitBlocked);
      if (required.length > 0) findPhrases(words, requiredIndex, seenRequired);
      return undefined;
    });
    const where = subjectName(subject);
    if ('tooDeep' in mapped) return { verdict: 'block', reason: `${where} is ${TOO_DEEP_REASON}` };
    if (hitBlocked.size > 0) {
      const which = blocked.flatMap((words, i) => (hitBlocked.has(words) ? [`#${i + 1}`] : []));
      const reason = `${where} contains blocked ${which.length === 1 ? 'entry' : 'entries'} ${which.join(', ')} of the list`;
      return { verdict: action, reason };
    }
    const missing = required.filter((words) => !seenRequired.has(words));
    if (missing.length > 0)
      return {
        verdict: 'block',
        reason: `${where} lacks required ${missing.map((words) => JSON.stringify(words.join(' '))).join(', ')}`,
      };
    return { verdict: 'pass' };
  };
}

/** Adds to `hits` each phrase of `index` that occurs in `words` (as consecutive words). */
function findPhrases(words: readonly string[], index: PhraseIndex, hits: Set<string[]>): void {
  for (let i = 0; i < words.length; i++) {
    const candidates = index.get(words[i] as string);
    if (candidates === undefined) continue;
    for (const phrase of candidates) {
      if (!hits.has(phrase) && phrase.every((word, k) => words[i + k] === word)) hits.add(phrase);
    }
  }
}
