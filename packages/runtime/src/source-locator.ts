import { type Document, isMap, isPair, isScalar, isSeq, LineCounter, type Node, parseDocument } from 'yaml';

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
  const document = parseDocument(text, { lineCounter: counter, prettyErrors: false, uniqueKeys: true });
  const lineAt = (offset: number) => Math.max(1, counter.linePos(offset).line) + firstLine - 1;
  return {
    document,
    lineAt,
    lineOf(path) {
      let node: unknown = document.contents;
      let line: number | undefined = rangeLine(node, lineAt);
      for (const step of path) {
        if (isMap(node)) {
          const pair = node.items.find(
            (item) => isPair(item) && isScalar(item.key) && item.key.value === step,
          );
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

function rangeLine(node: unknown, lineAt: (offset: number) => number): number | undefined {
  const range = (node as Node | null | undefined)?.range;
  return range === undefined || range === null ? undefined : lineAt(range[0]);
}
