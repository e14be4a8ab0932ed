import { randomUUID } from 'node:crypto';
import { StoreError } from './store-error.js';

/** What the store knows about one stored output. */
export interface StoredOutput {
  /** The handle the model uses: a random UUID, also the file's name. */
  readonly handle: string;
  readonly toolName: string;
  /** The tool's arguments as the model sent them (verbatim JSON). */
  readonly argumentsJson: string;
  readonly bytes: number;
  readonly lines: number;
  /** Tokens as the session estimated them. */
  readonly tokens: number;
  /** bytes / lines. */
  readonly avgLineBytes: number;
  readonly createdAt: number;
}

/** The shape `crypto.randomUUID()` produces (version 4, lowercase). */
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

export function isIssuableHandle(value: string): boolean {
  return UUID_V4.test(value);
}

export function newHandle(): string {
  return randomUUID();
}

/**
 * The handles one session issued. A lookup is an exact match against this map and nothing
 * else: a string the session did not issue (a path, another session's handle, a UUID never
 * given out) is never turned into a file name.
 */
export class HandleRegistry {
  private readonly byHandle = new Map<string, StoredOutput>();

  get size(): number {
    return this.byHandle.size;
  }

  add(record: StoredOutput): void {
    if (!isIssuableHandle(record.handle)) throw new StoreError('internal: a handle must be a v4 UUID');
    this.byHandle.set(record.handle, record);
  }

  /** The record of an issued handle; undefined for anything else (never throws, never touches the disk). */
  lookup(handle: unknown): StoredOutput | undefined {
    if (typeof handle !== 'string') return undefined;
    return this.byHandle.get(handle);
  }

  list(): StoredOutput[] {
    return [...this.byHandle.values()];
  }
}

/** Lines of a text: newline count, plus one for a last line without a newline. */
export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let count = 0;
  let at = text.indexOf('\n');
  while (at !== -1) {
    count++;
    at = text.indexOf('\n', at + 1);
  }
  return text.endsWith('\n') ? count : count + 1;
}
