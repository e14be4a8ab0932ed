import { dirname, join } from 'node:path';
import { parseEnv } from 'node:util';
import { RuntimeError } from '../errors.js';
import { readRegularFile } from '../files/read-regular-file.js';

/** The `.env` file beside a config file (`.ai-agent.env` beside ai-agent's `.ai-agent.json`). */
export function envFileBeside(configPath: string, aiAgent = false): string {
  return join(dirname(configPath), aiAgent ? '.ai-agent.env' : '.env');
}

/**
 * Reads a `.env` file (Node's `util.parseEnv` syntax: `KEY=value`, quotes, `#` comments).
 * A file that does not exist gives `{}`; one that cannot be read, is not a regular file or
 * is larger than `MAX_LOADED_FILE_BYTES` is a configuration error (naming the path only).
 */
export function readEnvFile(path: string, shownPath = path): Record<string, string> {
  const read = readRegularFile(path);
  if (!read.ok) {
    if (read.reason === 'not_found') return {};
    throw new RuntimeError({
      kind: 'configuration',
      file: shownPath,
      message: `${shownPath}: cannot read: ${read.detail}`,
    });
  }
  const parsed = parseEnv(read.text);
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(parsed)) if (value !== undefined) out[key] = value;
  return out;
}
