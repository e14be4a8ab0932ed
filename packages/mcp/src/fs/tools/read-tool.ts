import { stat } from 'node:fs/promises';
import { confineExisting } from '../confine.js';
import { FsToolError, safeFsError } from '../fs-errors.js';
import { readLineRange } from '../line-range.js';
import type { FsRoot } from '../root.js';
import { integerArg, requiredString, type ToolArguments } from '../tool-arguments.js';

export const READ_DEFAULT_LIMIT = 2000;
export const MAX_LINE_CHARS = 2000;
/** Files up to this size are scanned to the end so the header can give the total line count. */
const COUNT_TOTAL_MAX_BYTES = 64 * 1024 * 1024;

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/** `Read`: numbered lines of a text file, `     1\ttext`, under a header with the range and total. */
export async function readTool(root: FsRoot, args: ToolArguments, signal?: AbortSignal): Promise<string> {
  const target = await confineExisting(root, requiredString(args, 'path'));
  const offset = integerArg(args, 'offset', { min: 1, max: Number.MAX_SAFE_INTEGER, fallback: 1 });
  const limit = integerArg(args, 'limit', { min: 1, max: 100_000, fallback: READ_DEFAULT_LIMIT });
  const { display } = target;
  let size: number;
  try {
    const info = await stat(target.real);
    if (info.isDirectory())
      throw new FsToolError(`"${display}" is a directory; use ListDir or Find for directories.`);
    if (!info.isFile()) throw new FsToolError(`"${display}" is not a regular file.`);
    size = info.size;
  } catch (error) {
    throw safeFsError(error, display);
  }
  if (size === 0) return `[${display}: empty file]`;
  let range: Awaited<ReturnType<typeof readLineRange>>;
  try {
    range = await readLineRange(target.real, {
      offset,
      limit,
      maxLineChars: MAX_LINE_CHARS,
      countTotal: size <= COUNT_TOTAL_MAX_BYTES,
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    if (error instanceof FsToolError) throw new FsToolError(`"${display}" is a ${error.message}`);
    throw safeFsError(error, display);
  }
  const { lines, totalLines } = range;
  const first = lines[0];
  const last = lines[lines.length - 1];
  if (!first || !last) {
    return `[${display}: has ${totalLines ?? 'fewer'} lines; offset ${offset} is past the end]`;
  }
  const more = totalLines === undefined ? true : last.number < totalLines;
  const total =
    totalLines === undefined ? `; more lines follow (file is ${formatBytes(size)})` : ` of ${totalLines}`;
  const next = more ? `; continue with offset=${last.number + 1}` : '';
  const body = lines.map((line) => {
    const cut =
      line.fullBytes !== undefined
        ? `... [line cut at ${MAX_LINE_CHARS} chars; ${line.fullBytes} bytes in all]`
        : '';
    return `${String(line.number).padStart(6)}\t${line.text}${cut}`;
  });
  return [`[${display}: lines ${first.number}-${last.number}${total}${next}]`, ...body].join('\n');
}
