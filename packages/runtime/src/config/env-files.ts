import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseEnv } from 'node:util';
import { errorText, RuntimeError } from '../errors.js';

/** The `.env` file beside a config file. */
export function envFileBeside(configPath: string): string {
  return join(dirname(configPath), '.env');
}

/**
 * Reads a `.env` file (Node's `util.parseEnv` syntax: `KEY=value`, quotes, `#` comments).
 * A file that does not exist gives `{}`; one that cannot be read is a configuration error.
 */
export function readEnvFile(path: string, shownPath = path): Record<string, string> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new RuntimeError({
      kind: 'configuration',
      file: shownPath,
      message: `${shownPath}: cannot read: ${errorText(error)}`,
      cause: error,
    });
  }
  const parsed = parseEnv(text);
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(parsed)) if (value !== undefined) out[key] = value;
  return out;
}
