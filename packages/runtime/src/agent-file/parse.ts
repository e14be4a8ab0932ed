import { type Problem, problem } from '../errors.js';
import { locateSource, type SourceLocator, sourceData, yamlErrorText } from '../files/source-locator.js';

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
  const start = lines[0]?.startsWith('#!') ? 1 : 0;
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
  const end = lines.findIndex((line, index) => index > start && END_FENCE.test(line));
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
  const frontmatter = frontmatterData(locator, file, start + 2);
  if ('problems' in frontmatter) result.problems.push(...frontmatter.problems);
  else if (frontmatter.data !== undefined) result.data = frontmatter.data;
  return result;
}

/**
 * The frontmatter's mapping (undefined when it is empty), or the problems that stop it being
 * read: YAML errors, YAML that does not convert, anything but a mapping.
 */
function frontmatterData(
  locator: SourceLocator,
  file: string,
  firstLine: number,
): { data: Record<string, unknown> | undefined } | { problems: Problem[] } {
  const errors = locator.document.errors;
  if (errors.length > 0) {
    return {
      problems: errors.map((error) =>
        problem(
          'configuration',
          file,
          locator.lineAt(error.pos[0]),
          `invalid YAML in the frontmatter: ${yamlErrorText(error)}`,
        ),
      ),
    };
  }
  const converted = sourceData(locator);
  if (!converted.ok) {
    return {
      problems: [
        problem(
          'configuration',
          file,
          converted.line,
          `invalid YAML in the frontmatter: ${converted.message}`,
        ),
      ],
    };
  }
  const data = converted.value;
  if (data === null || data === undefined) return { data: undefined };
  if (typeof data !== 'object' || Array.isArray(data)) {
    return {
      problems: [
        problem(
          'configuration',
          file,
          firstLine,
          `the frontmatter must be a mapping of \`key: value\` lines, got ${Array.isArray(data) ? 'a list' : typeof data}`,
        ),
      ],
    };
  }
  return { data: data as Record<string, unknown> };
}
