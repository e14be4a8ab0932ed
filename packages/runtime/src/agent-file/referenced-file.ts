import { readFileSync } from 'node:fs';
import { errorText, type Problem, problem } from '../errors.js';

/**
 * Reads a file an agent file refers to (an include, a schema). A missing file is a `not_found`
 * problem and an unreadable one a `configuration` problem, both located at the referring line.
 */
export function readReferencedFile(
  path: string,
  what: string,
  ref: string,
  at: { file: string; line: number | undefined },
  problems: Problem[],
): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    problems.push(
      problem(
        missing ? 'not_found' : 'configuration',
        at.file,
        at.line,
        missing
          ? `${what} \`${ref}\` does not exist (looked for ${path})`
          : `cannot read ${what} \`${ref}\`: ${errorText(error)}`,
      ),
    );
    return undefined;
  }
}
