import { realpath } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import { FsToolError, safeFsError } from './fs-errors.js';
import type { FsRoot } from './root.js';

/** A user path resolved inside the root. */
export interface ConfinedPath {
  /** Root-relative, `/`-separated spelling to show the model (`.` for the root). */
  display: string;
  /** Real path of the target (when it exists) or of the nearest existing ancestor. */
  real: string;
  exists: boolean;
}

const WINDOWS_ABSOLUTE = /^(?:[A-Za-z]:|[\\/]{2})/;

/**
 * Checks a path the model gave before anything touches the disk: it must be relative, free of
 * NUL bytes and of `..` segments (with `/` or `\` as separator). Percent-encoded forms are not
 * decoded, so `%2e%2e` is just a name. Returns the normalised segments.
 */
export function checkRelativePath(input: unknown): string[] {
  if (typeof input !== 'string') throw new FsToolError('The path must be a string.');
  if (input.includes('\0')) throw new FsToolError('The path contains a NUL byte, which is not allowed.');
  if (input.startsWith('/') || input.startsWith('\\') || WINDOWS_ABSOLUTE.test(input)) {
    throw new FsToolError(
      'Absolute paths are not allowed: give a path relative to the root, for example "notes.txt".',
    );
  }
  // `\` is an ordinary character in POSIX names, but a `..` between backslashes is refused too.
  if (input.split(/[\\/]/).includes('..')) {
    throw new FsToolError('Paths may not contain ".." segments: only files under the root can be read.');
  }
  return input.split('/').filter((segment) => segment !== '' && segment !== '.');
}

const OUTSIDE = 'resolves outside the root (through a symbolic link) and cannot be accessed.';

/**
 * Resolves a model-supplied path inside the root, comparing real paths: a symbolic link (or a
 * chain of them, or a linked directory on the way) that ends outside the root is refused. For a
 * path that does not exist yet, its nearest existing ancestor must be inside the root.
 */
export async function confine(root: FsRoot, input: unknown): Promise<ConfinedPath> {
  const segments = checkRelativePath(input);
  // Shown back to the caller as typed (normalised), with the root's own location redacted.
  const display = root.redact(segments.length === 0 ? '.' : segments.join('/'));
  const lexical = segments.length === 0 ? root.real : join(root.real, ...segments);
  try {
    const real = await realpath(lexical);
    if (!root.contains(real)) throw new FsToolError(`"${display}" ${OUTSIDE}`);
    return { display, real, exists: true };
  } catch (error) {
    if (error instanceof FsToolError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw safeFsError(error, display);
  }
  let ancestor = dirname(lexical);
  while (ancestor.length >= root.real.length) {
    try {
      const real = await realpath(ancestor);
      if (!root.contains(real)) throw new FsToolError(`"${display}" ${OUTSIDE}`);
      return { display, real, exists: false };
    } catch (error) {
      if (error instanceof FsToolError) throw error;
      if (ancestor === root.real || !ancestor.includes(sep)) break;
      ancestor = dirname(ancestor);
    }
  }
  return { display, real: root.real, exists: false };
}

/** Like `confine`, but the target must exist. */
export async function confineExisting(root: FsRoot, input: unknown): Promise<ConfinedPath> {
  const target = await confine(root, input);
  if (!target.exists) throw new FsToolError(`"${target.display}" does not exist.`);
  return target;
}
