import { open } from 'node:fs/promises';
import { errorMessage } from '@agent/protocol/util';
import { EvalInputError } from './errors.js';

/**
 * Reads a regular file as UTF-8, refusing one over `maxBytes` (checked on the open handle, so
 * a FIFO or a device is refused without reading a byte).
 */
export async function readBoundedFile(path: string, maxBytes: number, what: string): Promise<string> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    throw new EvalInputError(`${what} ${path} cannot be read: ${errorMessage(error)}`, { cause: error });
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new EvalInputError(`${what} ${path} is not a regular file`);
    if (stats.size > maxBytes)
      throw new EvalInputError(
        `${what} ${path} is ${stats.size} bytes; at most ${maxBytes} bytes (${maxBytes / 1024 / 1024} MiB) are read`,
      );
    const buffer = Buffer.alloc(stats.size);
    const { bytesRead } = await handle.read(buffer, 0, stats.size, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}
