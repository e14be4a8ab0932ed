import { closeSync, constants, fstatSync, openSync, readSync, type Stats, statSync } from 'node:fs';
import { nonRegularKind } from '@agent/protocol/util';

/**
 * The most bytes the runtime reads from one file it loads: an agent file, an include, a
 * schema, a `.env` file, an `agent.json` layer.
 */
export const MAX_LOADED_FILE_BYTES = 1024 * 1024;

export type RegularFileRead =
  | { ok: true; text: string }
  | {
      ok: false;
      /** `not_found`: no such file; `refused`: not a regular file or over the cap; `unreadable`: any other error. */
      reason: 'not_found' | 'refused' | 'unreadable';
      /** What is wrong, for a message after the file's name (never the file's content). */
      detail: string;
    };

// O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting for one.
// O_NOCTTY: opening a terminal never makes it the process's controlling terminal.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

/**
 * Reads a regular file as UTF-8, at most `maxBytes`. The type and size are checked with
 * `fstat` on the opened handle, so a file swapped after the first look is still caught, and
 * reading stops at the cap even when the file grows meanwhile. FIFOs, devices (`/dev/zero`),
 * sockets and directories are refused without reading a byte, and never block.
 */
export function readRegularFile(path: string, maxBytes = MAX_LOADED_FILE_BYTES): RegularFileRead {
  let fd: number;
  try {
    // A first look, so that opening a device (which can have side effects) is never tried.
    const refused = refusal(statSync(path), maxBytes);
    if (refused !== undefined) return refused;
    fd = openSync(path, OPEN_FLAGS);
  } catch (error) {
    return failure(error);
  }
  try {
    const refused = refusal(fstatSync(fd), maxBytes);
    if (refused !== undefined) return refused;
    const bytes = readAtMost(fd, maxBytes + 1);
    // More than its size said: it grew meanwhile, or it is a file whose size says nothing (`/proc`).
    if (bytes.length > maxBytes) return tooLarge(maxBytes, 'found while reading it');
    return { ok: true, text: new TextDecoder('utf-8').decode(bytes) };
  } catch (error) {
    return failure(error);
  } finally {
    closeSync(fd);
  }
}

/** A size as people read it: `1 MiB`, `512 KiB`, `300 bytes`. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

function refusal(stats: Stats, maxBytes: number): RegularFileRead | undefined {
  if (!stats.isFile()) {
    return {
      ok: false,
      reason: 'refused',
      detail: `it is ${nonRegularKind(stats)}, not a regular file (only regular files are read)`,
    };
  }
  if (stats.size > maxBytes) return tooLarge(maxBytes, `it has ${stats.size} bytes`);
  return undefined;
}

function tooLarge(maxBytes: number, why: string): RegularFileRead {
  return {
    ok: false,
    reason: 'refused',
    detail: `it is larger than the limit of ${formatBytes(maxBytes)} (${why})`,
  };
}

/** Reads until end of file or `limit` bytes, whichever comes first. */
function readAtMost(fd: number, limit: number): Buffer {
  let buffer = Buffer.allocUnsafe(Math.min(limit, 64 * 1024));
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      if (length >= limit) break;
      const grown = Buffer.allocUnsafe(Math.min(limit, buffer.length * 2));
      buffer.copy(grown, 0, 0, length);
      buffer = grown;
    }
    const read = readSync(fd, buffer, length, buffer.length - length, null);
    if (read === 0) break;
    length += read;
  }
  return buffer.subarray(0, length);
}

function failure(error: unknown): RegularFileRead {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR')
    return { ok: false, reason: 'not_found', detail: 'it does not exist' };
  if (code === 'ENXIO') return { ok: false, reason: 'refused', detail: 'it is a socket, not a regular file' };
  if (code === 'EACCES' || code === 'EPERM')
    return { ok: false, reason: 'unreadable', detail: 'permission denied' };
  if (code === 'EISDIR')
    return { ok: false, reason: 'refused', detail: 'it is a directory, not a regular file' };
  if (code === 'ELOOP')
    return { ok: false, reason: 'unreadable', detail: 'too many levels of symbolic links' };
  return {
    ok: false,
    reason: 'unreadable',
    detail: code === undefined ? 'it cannot be read' : `it cannot be read (${code})`,
  };
}
