import { type Problem, problem } from '../errors.js';
import { readRegularFile } from '../files/read-regular-file.js';
import { checkInScope, type ReferenceScope, refusalText } from './reference-scope.js';

/** The line that names a file: where problems about the file are reported. */
export interface ReferringLine {
  file: string;
  line: number | undefined;
}

/**
 * Reads a file an agent file refers to (an include, a schema, a sub-agent): only inside the
 * agent's `scope` (symbolic links count by where they lead), only a regular file, at most
 * `MAX_LOADED_FILE_BYTES`. A missing file is a `not_found` problem, anything else a
 * `configuration` problem, both located at the referring line and naming paths only (never
 * the file's content).
 */
export function readReferencedFile(
  path: string,
  what: string,
  ref: string,
  at: ReferringLine,
  scope: ReferenceScope,
  problems: Problem[],
): string | undefined {
  const report = (kind: Problem['kind'], message: string) => {
    problems.push(problem(kind, at.file, at.line, `${what} \`${ref}\` ${message}`));
    return undefined;
  };
  const allowed = checkInScope(path, scope);
  if (!allowed.ok) {
    return allowed.missing
      ? report('not_found', `does not exist (looked for ${path})`)
      : report('configuration', `is refused: ${refusalText(allowed, scope)}`);
  }
  const read = readRegularFile(allowed.path);
  if (read.ok) return read.text;
  if (read.reason === 'not_found') return report('not_found', `does not exist (looked for ${path})`);
  return report('configuration', `cannot be read: ${read.detail} (${path})`);
}
