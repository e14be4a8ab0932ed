import { type Problem, problem } from '../errors.js';
import { locateSource, type SourceLocator, sourceData, yamlErrorText } from '../source-locator.js';

/** An agent file split into its frontmatter (parsed, with lines) and its prompt body. */
export interface ParsedAgentFile {
  /** Absolute path. */
  path: string;
  /** The path as shown in messages. */
  file: string;
  /** The frontmatter as plain data (`{}` when there is none). */
  data: Record<string, unknown>;
  locator: SourceLocator | undefined;
  /** The prompt: everything after the closing `---`. */
  body: string;
  /** File line the body starts on. */
  bodyLine: number;
  problems: Problem[];
}

const FENCE = /^---\s*$/;
const END_FENCE = /^(---|\.\.\.)\s*$/;

/**
 * Splits `#!shebang` (optional), `---` YAML frontmatter `---` (optional) and the prompt body.
 * YAML errors (an alias bomb too) and a frontmatter that is not a mapping are problems with
 * the file line.
 */
export function parseAgentFile(path: string, file: string, text: string): ParsedAgentFile {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  let start = 0;
  if (lines[0]?.startsWith('#!')) start = 1;
  const result: ParsedAgentFile = {
    path,
    file,
    data: {},
    locator: undefined,
    body: lines.slice(start).join('\n'),
    bodyLine: start + 1,
    problems: [],
  };
  if (!FENCE.test(lines[start] ?? '')) return result;
  let end = -1;
  for (let index = start + 1; index < lines.length; index++) {
    if (END_FENCE.test(lines[index]!)) {
      end = index;
      break;
    }
  }
  if (end === -1) {
    result.problems.push(
      problem(
        'configuration',
        file,
        start + 1,
        'the frontmatter opened here is never closed by a `---` line',
      ),
    );
    return result;
  }
  result.body = lines.slice(end + 1).join('\n');
  result.bodyLine = end + 2;
  const locator = locateSource(lines.slice(start + 1, end).join('\n'), start + 2);
  result.locator = locator;
  const errors = locator.document.errors;
  if (errors.length > 0) {
    for (const error of errors) {
      result.problems.push(
        problem(
          'configuration',
          file,
          locator.lineAt(error.pos[0]),
          `invalid YAML in the frontmatter: ${yamlErrorText(error)}`,
        ),
      );
    }
    return result;
  }
  const converted = sourceData(locator);
  if (!converted.ok) {
    result.problems.push(
      problem('configuration', file, converted.line, `invalid YAML in the frontmatter: ${converted.message}`),
    );
    return result;
  }
  const data = converted.value;
  if (data === null || data === undefined) return result;
  if (typeof data !== 'object' || Array.isArray(data)) {
    result.problems.push(
      problem(
        'configuration',
        file,
        start + 2,
        `the frontmatter must be a mapping of \`key: value\` lines, got ${Array.isArray(data) ? 'a list' : typeof data}`,
      ),
    );
    return result;
  }
  result.data = data as Record<string, unknown>;
  return result;
}
