import { readRegularFile } from '@agent/runtime';
import { EvalInputError } from './errors.js';

/**
 * Reads a dataset or results file through the runtime's bounded reader (a regular file of at
 * most `maxBytes`; FIFOs and devices refused without blocking), as an `EvalInputError` that
 * names the file when it cannot.
 */
export function readBoundedFile(path: string, maxBytes: number, what: string): string {
  const read = readRegularFile(path, maxBytes);
  if (!read.ok) throw new EvalInputError(`${what} ${path} cannot be read: ${read.detail}`);
  return read.text;
}
