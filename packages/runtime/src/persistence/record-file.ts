import { randomUUID } from 'node:crypto';
import { chmod, mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { SessionRecord } from '@agent/protocol';
import { isStoreId, STORE_ID_ALLOWED } from '@agent/protocol/util';
import { RuntimeError } from '../errors.js';

const gzipAsync = promisify(gzip);

/**
 * A record bigger than this uncompressed is written without its payloads (and says so); the
 * reader refuses a file, or its inflated content, over the same bound, so every record this
 * runtime writes can be read back and a gzip bomb cannot take more.
 */
export const MAX_RECORD_BYTES = 16 * 1024 * 1024;
/** The deepest tree a record may hold (a session's tree is a few levels per sub-agent). */
export const MAX_RECORD_DEPTH = 256;

export const RECORD_FILE_SUFFIX = '.json.gz';

/** The file a session's record is kept in. */
export function recordFileName(sessionId: string): string {
  return `${sessionId}${RECORD_FILE_SUFFIX}`;
}

/**
 * Writes `<sessionId>.json.gz` in `dir` (created 0700), mode 0600, through a temporary name
 * renamed into place, so a reader never sees half a file. `withoutPayloads` builds the smaller
 * record used when this one is over `maxBytes` uncompressed. Resolves to the file's path.
 */
export async function writeSessionRecord(
  dir: string,
  record: SessionRecord,
  withoutPayloads: () => SessionRecord,
  maxBytes = MAX_RECORD_BYTES,
): Promise<string> {
  let text = JSON.stringify(record);
  const size = Buffer.byteLength(text);
  if (size > maxBytes) {
    text = JSON.stringify({
      ...withoutPayloads(),
      payloadsDropped: `the record was ${size} bytes, over the ${maxBytes}-byte bound: the LLM and tool payloads were left out`,
    });
  }
  const body = await gzipAsync(Buffer.from(text));
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, recordFileName(record.sessionId));
  const temp = join(dir, `.${record.sessionId}.${randomUUID()}.tmp`);
  try {
    await writeFile(temp, body, { mode: 0o600, flag: 'wx' });
    await chmod(temp, 0o600);
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
  return path;
}

/**
 * The record file `ref` names: a path to a file, or a session id looked up in the sessions
 * directory (`sessionsDir` is asked only then). Throws `RuntimeError` `not_found` saying where
 * it looked.
 */
export async function findSessionRecord(
  ref: string,
  sessionsDir: string | undefined | (() => string | undefined),
): Promise<string> {
  const asPath = resolve(ref);
  if (await isFile(asPath)) return asPath;
  if (!isStoreId(ref))
    throw new RuntimeError({
      kind: 'not_found',
      file: ref,
      message: `${ref}: no such file, and not a session id (${STORE_ID_ALLOWED})`,
    });
  const dir = typeof sessionsDir === 'function' ? sessionsDir() : sessionsDir;
  if (dir === undefined)
    throw new RuntimeError({
      kind: 'not_found',
      file: ref,
      message: `${ref} is not a file, and no persistence.sessionsDir is configured to look the session id up in (set it in agent.json, or pass the record file's path)`,
    });
  const path = join(dir, recordFileName(ref));
  if (await isFile(path)) return path;
  throw new RuntimeError({
    kind: 'not_found',
    file: ref,
    message: `no session ${JSON.stringify(ref)} in ${dir} (no file ${recordFileName(ref)}; records are written when a session finishes with persistence.sessionsDir set)`,
  });
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}
