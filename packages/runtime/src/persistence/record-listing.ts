import { opendir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { isStoreId } from '@agent/protocol/util';
import { MAX_RECORD_BYTES, RECORD_FILE_SUFFIX } from './record-file.js';

/** One record file of a sessions directory, as listed (not read). */
export interface RecordFileInfo {
  sessionId: string;
  path: string;
  /** Epoch milliseconds of the file's last change (when the session's record was written). */
  modifiedAt: number;
  size: number;
}

export interface ListRecordsOptions {
  /** Files returned, the most recently written first (default 200). */
  max?: number;
  /** Directory entries looked at before it stops (default 10,000): a huge directory is not read whole. */
  maxScanned?: number;
}

const STAT_BATCH = 64;

/**
 * The session record files (`<sessionId>.json.gz`) of `dir`, most recently written first, at
 * most `max` of them. Asynchronous throughout (the directory is iterated, never read whole, and
 * at most `maxScanned` entries are looked at). Files over the reader's size bound, temporary
 * files and names that are not session ids are left out. A directory that does not exist has
 * none.
 */
export async function listSessionRecordFiles(
  dir: string,
  options: ListRecordsOptions = {},
): Promise<RecordFileInfo[]> {
  const max = options.max ?? 200;
  const maxScanned = options.maxScanned ?? 10_000;
  const names: string[] = [];
  let handle: Awaited<ReturnType<typeof opendir>>;
  try {
    handle = await opendir(dir, { bufferSize: 64 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  let scanned = 0;
  for await (const entry of handle) {
    if (++scanned > maxScanned) break;
    if (!entry.isFile() || !entry.name.endsWith(RECORD_FILE_SUFFIX)) continue;
    if (isStoreId(entry.name.slice(0, -RECORD_FILE_SUFFIX.length))) names.push(entry.name);
  }
  // Leaving the loop early closes the handle; a full iteration closes it too.
  const found: RecordFileInfo[] = [];
  for (let i = 0; i < names.length; i += STAT_BATCH) {
    const batch = names.slice(i, i + STAT_BATCH);
    const infos = await Promise.all(batch.map((name) => statRecord(dir, name)));
    for (const info of infos) if (info !== undefined) found.push(info);
  }
  return found.sort((a, b) => b.modifiedAt - a.modifiedAt).slice(0, max);
}

async function statRecord(dir: string, name: string): Promise<RecordFileInfo | undefined> {
  const path = join(dir, name);
  try {
    const info = await stat(path);
    if (!info.isFile() || info.size > MAX_RECORD_BYTES) return undefined;
    return {
      sessionId: name.slice(0, -RECORD_FILE_SUFFIX.length),
      path,
      modifiedAt: info.mtimeMs,
      size: info.size,
    };
  } catch {
    // Removed since it was listed.
    return undefined;
  }
}
