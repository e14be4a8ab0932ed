import { realpathSync, statSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import { ConfigError } from '@agent/protocol';

/** The directory a filesystem server is confined to: as configured and as a real path. */
export interface FsRoot {
  /** `realpath` of the root: every resolved target must be this or below it. */
  readonly real: string;
  /** Removes any spelling of the root's absolute path from text shown to the model. */
  redact(text: string): string;
  /** Whether a real path is the root or inside it. */
  contains(realPath: string): boolean;
}

/** Opens a root directory; throws (for the operator, not the model) when it is not a directory. */
export function openRoot(root: string): FsRoot {
  const given = resolve(root);
  let real: string;
  try {
    real = realpathSync(given);
  } catch (error) {
    throw new ConfigError({
      field: 'root',
      value: given,
      allowed: 'an existing directory',
      message: `The filesystem root cannot be used: ${given} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    });
  }
  if (!statSync(real).isDirectory()) {
    throw new ConfigError({
      field: 'root',
      value: given,
      allowed: 'an existing directory',
      message: `The filesystem root is not a directory: ${given}`,
    });
  }
  const spellings = [...new Set([real, given])].filter((s) => s !== sep).sort((a, b) => b.length - a.length);
  const prefix = real.endsWith(sep) ? real : real + sep;
  return {
    real,
    contains: (path) => path === real || path.startsWith(prefix),
    redact: (text) => spellings.reduce((out, spelling) => out.split(spelling).join('<root>'), text),
  };
}
