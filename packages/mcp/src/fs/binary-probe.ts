import { open } from 'node:fs/promises';

const PROBE_BYTES = 8000;

/** Whether a file looks binary: a NUL byte in its first 8000 bytes (the rule grep uses). */
export async function looksBinary(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(PROBE_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, PROBE_BYTES, 0);
    return buffer.subarray(0, bytesRead).includes(0);
  } finally {
    await handle.close();
  }
}
