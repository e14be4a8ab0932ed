import { parseTtl } from '@agent/cache';
import { ConfigError } from '@agent/protocol';
import { describeValue } from '@agent/protocol/util';
import { type Problem, problem } from '../errors.js';

/**
 * A TTL setting (an agent file's `cache`, an `agent.json` server's `cache` / `toolsCache`) in
 * milliseconds; a value `parseTtl` refuses is a problem at `at.line` naming `field`, and 0.
 */
export function readTtlSetting(
  value: unknown,
  field: string,
  at: { file: string; line: number | undefined },
  problems: Problem[],
): number {
  try {
    return parseTtl(value, field);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    problems.push(
      problem(
        'configuration',
        at.file,
        at.line,
        `\`${field}\` must be ${error.allowed}, got ${describeValue(value)}`,
        { field, value, allowed: error.allowed },
      ),
    );
    return 0;
  }
}
