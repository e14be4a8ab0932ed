import { randomUUID } from 'node:crypto';
import { chmod, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import { SESSION_RECORD_KIND, SESSION_RECORD_VERSION, type SessionRecord } from '@agent/protocol';
import { errorMessage, isRecord, isStoreId, STORE_ID_ALLOWED } from '@agent/protocol/util';
import { RuntimeError } from '../errors.js';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/** A record bigger than this uncompressed is written without its payloads (and says so). */
export const MAX_RECORD_BYTES = 64 * 1024 * 1024;
/** The largest record file read back (compressed), and the largest it may inflate to. */
export const MAX_RECORD_FILE_BYTES = 64 * 1024 * 1024;
const MAX_INFLATED_BYTES = 2 * MAX_RECORD_BYTES;

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
 * Reads a session record file: gzip-compressed JSON of a `SessionRecord` this code can read.
 * Throws `RuntimeError` `not_found` for a missing file, `configuration` for one that is not a
 * record (not gzip, not JSON, another kind) or is of a newer version.
 */
export async function readSessionRecord(path: string): Promise<SessionRecord> {
  const bad = (message: string, cause?: unknown) =>
    new RuntimeError({ kind: 'configuration', file: path, message: `${path}: ${message}`, cause });
  let compressed: Buffer;
  try {
    const info = await stat(path);
    if (!info.isFile()) throw bad('not a file');
    if (info.size > MAX_RECORD_FILE_BYTES)
      throw bad(`${info.size} bytes, over the ${MAX_RECORD_FILE_BYTES}-byte bound of a session record`);
    compressed = await readFile(path);
  } catch (error) {
    if (error instanceof RuntimeError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT')
      throw new RuntimeError({
        kind: 'not_found',
        file: path,
        message: `${path}: no such file`,
        cause: error,
      });
    throw bad(`cannot read it: ${errorMessage(error)}`, error);
  }
  let text: string;
  try {
    text = (await gunzipAsync(compressed, { maxOutputLength: MAX_INFLATED_BYTES })).toString('utf8');
  } catch (error) {
    throw bad(`not a session record: not gzip-compressed data (${errorMessage(error)})`, error);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw bad(`not a session record: the content is not JSON (${errorMessage(error)})`, error);
  }
  if (!isRecord(value) || value.kind !== SESSION_RECORD_KIND)
    throw bad(`not a session record: expected JSON with "kind": "${SESSION_RECORD_KIND}"`);
  const version = value.version;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1)
    throw bad('not a session record: "version" is not a positive integer');
  if (version > SESSION_RECORD_VERSION)
    throw bad(
      `session record version ${version} is newer than this version of agent reads (up to ${SESSION_RECORD_VERSION}): upgrade agent to read it`,
    );
  if (!isRecord(value.tree) || typeof value.sessionId !== 'string')
    throw bad('not a session record: it has no "sessionId" or "tree"');
  return value as unknown as SessionRecord;
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
