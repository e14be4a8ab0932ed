import { looksBinary } from '../binary-probe.js';
import { FsToolError, safeFsError } from '../fs-errors.js';
import { grepFile } from '../grep-file.js';
import { compileMatcher } from '../grep-matcher.js';
import type { FsRoot } from '../root.js';
import { scopeFiles, searchScope } from '../search-targets.js';
import {
  booleanArg,
  integerArg,
  optionalString,
  requiredString,
  type ToolArguments,
} from '../tool-arguments.js';

export const GREP_DEFAULT_MAX_MATCHES = 100;
const GREP_MAX_LINE_CHARS = 500;

/**
 * `Grep`: lines matching a regular expression (run on RE2), as `file:line:text` (context lines as
 * `file-line-text`, separate groups split by `--`), or per-file counts with `count: true`.
 */
export async function grepTool(root: FsRoot, args: ToolArguments, signal?: AbortSignal): Promise<string> {
  const pattern = requiredString(args, 'pattern');
  const path = optionalString(args, 'path') ?? '.';
  const glob = optionalString(args, 'glob');
  const context = integerArg(args, 'context', { min: 0, max: 50, fallback: 0 });
  const maxMatches = integerArg(args, 'maxMatches', {
    min: 1,
    max: 100_000,
    fallback: GREP_DEFAULT_MAX_MATCHES,
  });
  const ignoreCase = booleanArg(args, 'ignoreCase', false);
  const countOnly = booleanArg(args, 'count', false);
  const matcher = compileMatcher(pattern, ignoreCase);
  const scope = await searchScope(root, path, glob);
  const output: string[] = [];
  let matches = 0;
  let filesMatched = 0;
  let skippedBinary = 0;
  let hitLimit = false;
  for await (const file of scopeFiles(root, scope, signal)) {
    try {
      if (await looksBinary(file.real)) {
        skippedBinary++;
        continue;
      }
      const result = await grepFile(file.real, file.display, {
        matcher,
        context,
        maxLineChars: GREP_MAX_LINE_CHARS,
        maxMatches: maxMatches - matches,
        countOnly,
        ...(signal ? { signal } : {}),
      });
      if (result.matches === 0) continue;
      filesMatched++;
      matches += result.matches;
      if (countOnly) output.push(`${file.display}:${result.matches}`);
      else {
        if (context > 0 && output.length > 0) output.push('--');
        output.push(...result.lines);
      }
      if (result.hitLimit) {
        hitLimit = true;
        break;
      }
    } catch (error) {
      if (error instanceof FsToolError) throw error;
      if (scope.isFile) throw safeFsError(error, file.display);
      // One unreadable file does not end a directory search.
    }
  }
  const binaryNote = skippedBinary > 0 ? `; ${skippedBinary} binary file(s) skipped` : '';
  // The pattern and path are echoed as typed; the root's location is redacted even there.
  if (matches === 0) return root.redact(`No matches for /${pattern}/ in ${scope.description}${binaryNote}.`);
  const limitNote = hitLimit
    ? `; stopped at maxMatches=${maxMatches} (narrow the pattern or path, or raise maxMatches)`
    : '';
  output.push(`[${matches} matching line(s) in ${filesMatched} file(s)${limitNote}${binaryNote}]`);
  return output.join('\n');
}
