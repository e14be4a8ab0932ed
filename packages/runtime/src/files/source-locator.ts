import { errorMessage } from '@agent/protocol/util';
import {
  type Document,
  isMap,
  isPair,
  isScalar,
  isSeq,
  LineCounter,
  type Node,
  type Pair,
  parseDocument,
  visit,
  type YAMLError,
  type YAMLMap,
  YAMLParseError,
} from 'yaml';

/**
 * Alias expansions a YAML document may make while it becomes data (`yaml`'s `maxAliasCount`):
 * more is an alias bomb ("billion laughs"), which would otherwise grow to gigabytes.
 */
export const MAX_YAML_ALIAS_COUNT = 100;

/**
 * Keys a YAML document may have, counted before it is parsed. An agent file has a few dozen; tens
 * of thousands only make parsing and checking slow (yaml's own unique-key check is quadratic).
 */
export const MAX_YAML_KEYS = 10_000;

// What can start a key: `:` before a space or the line's end, `:` right after a quote (JSON),
// `?` before a space (an explicit key). An upper bound: a `: ` inside a string counts too.
const KEY_MARKS = /:(?=\s|$)|["']:(?!\s)|\?(?=\s|$)/gm;

/** Whether `text` has more than `MAX_YAML_KEYS` places a key could start (stops counting there). */
function tooManyKeys(text: string): boolean {
  let count = 0;
  KEY_MARKS.lastIndex = 0;
  while (KEY_MARKS.exec(text) !== null) if (++count > MAX_YAML_KEYS) return true;
  return false;
}

/** A path into a parsed document: object keys and list indexes. */
export type SourcePath = readonly (string | number)[];

/** A YAML (or JSON, which YAML reads too) document with the line of every key and item. */
export interface SourceLocator {
  readonly document: Document.Parsed;
  /** Line (1-based, in the whole file) of the deepest node found along `path`. */
  lineOf(path: SourcePath): number | undefined;
  /** Line of a character offset of the parsed text. */
  lineAt(offset: number): number;
}

/**
 * Parses `text` keeping positions. `firstLine` is the file line the text starts on (frontmatter
 * starts below the `---`), so every line reported is a line of the file.
 */
export function locateSource(text: string, firstLine = 1): SourceLocator {
  const counter = new LineCounter();
  const over = tooManyKeys(text);
  // Keys are checked unique here in one pass (yaml's `uniqueKeys` compares each with every earlier one).
  const document = parseDocument(over ? '' : text, {
    lineCounter: counter,
    prettyErrors: false,
    uniqueKeys: false,
  });
  if (over)
    document.errors.push(
      new YAMLParseError(
        [0, 0],
        'RESOURCE_EXHAUSTION',
        `it has more than ${MAX_YAML_KEYS} keys (the bound of a YAML document; an agent file needs a few dozen)`,
      ),
    );
  else document.errors.push(...duplicateKeys(document));
  const lineAt = (offset: number) => Math.max(1, counter.linePos(offset).line) + firstLine - 1;
  // Each map's pairs by key, made on the first look: a line per problem stays linear in the keys.
  const indexes = new WeakMap<YAMLMap, Map<unknown, Pair>>();
  const pairsOf = (map: YAMLMap) => {
    let index = indexes.get(map);
    if (index === undefined) {
      index = new Map();
      for (const item of map.items)
        if (isPair(item) && isScalar(item.key) && !index.has(item.key.value)) index.set(item.key.value, item);
      indexes.set(map, index);
    }
    return index;
  };
  return {
    document,
    lineAt,
    lineOf(path) {
      let node: unknown = document.contents;
      let line: number | undefined = rangeLine(node, lineAt);
      for (const step of path) {
        if (isMap(node)) {
          const pair = pairsOf(node).get(step);
          if (pair === undefined) return line;
          line = rangeLine(pair.key, lineAt) ?? line;
          node = pair.value;
        } else if (isSeq(node) && typeof step === 'number') {
          const item = node.items[step];
          if (item === undefined) return line;
          line = rangeLine(item, lineAt) ?? line;
          node = item;
        } else {
          return line;
        }
      }
      return line;
    },
  };
}

/** Every key of a map that an earlier key of the same map already has (scalar keys: the ones config uses). */
function duplicateKeys(document: Document.Parsed): YAMLParseError[] {
  const errors: YAMLParseError[] = [];
  visit(document, {
    Map(_key, map) {
      const seen = new Set<unknown>();
      for (const pair of map.items) {
        if (!isScalar(pair.key)) continue;
        if (seen.has(pair.key.value)) {
          const range = pair.key.range ?? [0, 0];
          errors.push(new YAMLParseError([range[0], range[1]], 'DUPLICATE_KEY', 'Map keys must be unique'));
        }
        seen.add(pair.key.value);
      }
    },
  });
  return errors;
}

function rangeLine(node: unknown, lineAt: (offset: number) => number): number | undefined {
  const range = (node as Node | null | undefined)?.range;
  return range === undefined || range === null ? undefined : lineAt(range[0]);
}

export type SourceData = { ok: true; value: unknown } | { ok: false; line: number; message: string };

/**
 * `locateSource`, parsed on first use: for text read by other means (`agent.json` is JSON), whose
 * lines are wanted only when something in it is wrong.
 */
export function lazySourceLocator(text: string, firstLine = 1): SourceLocator {
  let parsed: SourceLocator | undefined;
  const located = () => {
    parsed ??= locateSource(text, firstLine);
    return parsed;
  };
  return {
    get document() {
      return located().document;
    },
    lineOf: (path) => located().lineOf(path),
    lineAt: (offset) => located().lineAt(offset),
  };
}

/**
 * The parsed document as plain data. An alias bomb is refused (at the line of the first
 * alias) instead of being expanded; call only when `document.errors` is empty.
 */
export function sourceData(locator: SourceLocator): SourceData {
  try {
    return { ok: true, value: locator.document.toJS({ maxAliasCount: MAX_YAML_ALIAS_COUNT }) };
  } catch (error) {
    let line = locator.lineOf([]) ?? locator.lineAt(0);
    visit(locator.document, {
      Alias(_key, node) {
        line = rangeLine(node, locator.lineAt) ?? line;
        return visit.BREAK;
      },
    });
    const bomb = /alias count/i.test(errorMessage(error));
    const message = bomb
      ? `YAML aliases expand to more than ${MAX_YAML_ALIAS_COUNT} copies (an alias bomb?); write the values out instead of nesting aliases`
      : `the YAML cannot be read: ${errorMessage(error)}`;
    return { ok: false, line, message };
  }
}

// Messages of these kinds quote the text they stumbled on, which may be a secret.
const QUOTING_ERRORS: Partial<Record<string, string>> = {
  UNEXPECTED_TOKEN: 'unexpected token',
  BAD_DQ_ESCAPE: 'invalid escape sequence in a double-quoted string',
  TAG_RESOLVE_FAILED: 'unresolved tag',
  BAD_DIRECTIVE: 'unknown directive',
  BAD_COLLECTION_TYPE: 'tag used for the wrong kind of collection',
};

/** A YAML error in words that never quote the text: the first line of `yaml`'s message, or a fixed one. */
export function yamlErrorText(error: YAMLError): string {
  const fixed = QUOTING_ERRORS[error.code];
  if (fixed !== undefined) return fixed;
  const message = error.message.split('\n')[0] ?? error.message;
  return message.replace(/ at line \d+, column \d+:?$/, '');
}
