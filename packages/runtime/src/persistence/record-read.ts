import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { SESSION_RECORD_KIND, SESSION_RECORD_VERSION, type SessionRecord } from '@agent/protocol';
import { errorMessage, isRecord } from '@agent/protocol/util';
import { RuntimeError } from '../errors.js';
import { formatBytes } from '../files/read-regular-file.js';
import { MAX_RECORD_BYTES, MAX_RECORD_DEPTH } from './record-file.js';

const gunzipAsync = promisify(gunzip);

// O_NONBLOCK: a FIFO planted at a record's path opens at once (and is then refused) instead of
// waiting for a writer.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

export interface ReadRecordOptions {
  /** The most bytes a record may inflate to (default `MAX_RECORD_BYTES`, 16 MiB); the file itself is bounded by the same. */
  maxBytes?: number;
}

/**
 * Reads a session record file: gzip-compressed JSON of a `SessionRecord` this code can read.
 * Bounded throughout: the file is read through one handle checked with `fstat` (a regular file
 * of at most `maxBytes`), inflation stops at `maxBytes` (zlib's `maxOutputLength`, chunk by
 * chunk off the event loop), and the tree is checked without recursion (at most
 * `MAX_RECORD_DEPTH` levels, every node with a `children` list). Throws `RuntimeError`
 * `not_found` for a missing file, `configuration` for one that is not a record, is over a bound
 * or is of a newer version.
 */
export async function readSessionRecord(
  path: string,
  options: ReadRecordOptions = {},
): Promise<SessionRecord> {
  const maxBytes = options.maxBytes ?? MAX_RECORD_BYTES;
  const bad = (message: string, cause?: unknown) =>
    new RuntimeError({ kind: 'configuration', file: path, message: `${path}: ${message}`, cause });
  const compressed = await readCompressed(path, maxBytes, bad);
  let text: string;
  try {
    text = (await gunzipAsync(compressed, { maxOutputLength: maxBytes })).toString('utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
      throw bad(`it inflates to more than ${formatBytes(maxBytes)}, the bound of a session record`, error);
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
  const treeProblem = checkTree(value.tree);
  if (treeProblem !== undefined) throw bad(treeProblem);
  return value as unknown as SessionRecord;
}

async function readCompressed(
  path: string,
  maxBytes: number,
  bad: (message: string, cause?: unknown) => RuntimeError,
): Promise<Buffer> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, OPEN_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT')
      throw new RuntimeError({
        kind: 'not_found',
        file: path,
        message: `${path}: no such file`,
        cause: error,
      });
    if (code === 'ENXIO') throw bad('it is a socket, not a regular file', error);
    throw bad(`cannot read it: ${errorMessage(error)}`, error);
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw bad('not a regular file (only regular files are read as session records)');
    if (info.size > maxBytes)
      throw bad(`${info.size} bytes, over the ${formatBytes(maxBytes)} bound of a session record`);
    // One byte more than the bound: a file that grew since `fstat` is caught, never read whole.
    const buffer = Buffer.alloc(Math.min(maxBytes + 1, info.size + 1));
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length === buffer.length) break;
    }
    if (length > maxBytes) throw bad(`over the ${formatBytes(maxBytes)} bound of a session record`);
    return buffer.subarray(0, length);
  } catch (error) {
    if (error instanceof RuntimeError) throw error;
    throw bad(`cannot read it: ${errorMessage(error)}`, error);
  } finally {
    await handle.close();
  }
}

/** What is wrong with a record's tree (too deep, a node without `children`), walked without recursion. */
function checkTree(tree: Record<string, unknown>): string | undefined {
  const stack: { node: unknown; depth: number }[] = [{ node: tree, depth: 1 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (depth > MAX_RECORD_DEPTH)
      return `its tree is deeper than ${MAX_RECORD_DEPTH} levels, the bound of a session record`;
    if (!isRecord(node) || !Array.isArray(node.children))
      return 'not a session record: a node of its tree has no "children" list';
    for (const child of node.children) stack.push({ node: child, depth: depth + 1 });
  }
  return undefined;
}
