import { promisify } from 'node:util';
import { brotliCompress, brotliDecompress, constants } from 'node:zlib';

const compress = promisify(brotliCompress);
const decompress = promisify(brotliDecompress);

/** The first byte of every stored value: how the rest is encoded (1 = JSON, brotli). */
const FORMAT_JSON_BROTLI = 1;

/** Why a value was not stored. */
export class ValueTooLarge extends Error {
  constructor(
    readonly bytes: number,
    readonly limit: number,
  ) {
    super(`the value is ${bytes} bytes as JSON, over the limit of ${limit}`);
  }
}

/**
 * A JSON value as stored bytes: one format byte, then the JSON compressed with brotli (quality 4:
 * most of the gain for a fraction of the time; off the main thread, in libuv's pool). Throws
 * `ValueTooLarge` when the JSON is over `maxBytes`, before compressing anything.
 */
export async function encodeValue(value: unknown, maxBytes: number): Promise<Uint8Array> {
  const json = JSON.stringify(value);
  if (json === undefined) throw new TypeError('the value cannot be stored as JSON');
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
