import { promisify } from 'node:util';
import { brotliCompress, brotliDecompress, constants } from 'node:zlib';
import { errorMessage } from '@agent/protocol/util';
import { CACHE_VALUE_ERROR_CODE, CacheError } from './errors.js';

const compress = promisify(brotliCompress);
const decompress = promisify(brotliDecompress);

/** The first byte of every stored value: how the rest is encoded (1 = JSON, brotli). */
const FORMAT_JSON_BROTLI = 1;

/** Why a value was not stored. */
export class ValueTooLarge extends CacheError {
  constructor(
    readonly bytes: number,
    readonly limit: number,
  ) {
    super(`the value is ${bytes} bytes as JSON, over the limit of ${limit}`, {
      code: CACHE_VALUE_ERROR_CODE,
    });
  }
}

/**
 * A JSON value as stored bytes: one format byte, then the JSON compressed with brotli (quality 4:
 * most of the gain for a fraction of the time; off the main thread, in libuv's pool). Throws
 * `ValueTooLarge` when the JSON is over `maxBytes`, before compressing anything.
 */
export async function encodeValue(value: unknown, maxBytes: number): Promise<Uint8Array> {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch (error) {
    // A BigInt or a cycle: JSON.stringify's own TypeError, as the cache's error.
    throw new CacheError(`the value cannot be stored as JSON: ${errorMessage(error)}`, {
      code: CACHE_VALUE_ERROR_CODE,
      cause: error,
    });
  }
  if (json === undefined)
    throw new CacheError('the value cannot be stored as JSON', { code: CACHE_VALUE_ERROR_CODE });
  const bytes = Buffer.byteLength(json);
  if (bytes > maxBytes) throw new ValueTooLarge(bytes, maxBytes);
  const packed = await compress(Buffer.from(json), {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 4,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes,
    },
  });
  const out = Buffer.allocUnsafe(packed.length + 1);
  out[0] = FORMAT_JSON_BROTLI;
  packed.copy(out, 1);
  return out;
}

/**
 * The value of stored bytes, or undefined when they cannot be read back (another format, corrupt
 * data, or more than `maxBytes` once decompressed: a stored value can never inflate past the bound).
 */
export async function decodeValue(
  bytes: Uint8Array,
  maxBytes: number,
): Promise<{ value: unknown } | undefined> {
  if (bytes.length < 1 || bytes[0] !== FORMAT_JSON_BROTLI) return undefined;
  try {
    const json = await decompress(Buffer.from(bytes.buffer, bytes.byteOffset + 1, bytes.length - 1), {
      maxOutputLength: maxBytes,
    });
    return { value: JSON.parse(json.toString('utf8')) };
  } catch {
    return undefined;
  }
}
