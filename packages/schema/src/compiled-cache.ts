import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { schemaDefaults } from './limits.js';

/**
 * Heap bytes a compiled validator keeps per byte of its schema's JSON (the schema itself,
 * Ajv's generated code and its closures), and per RE2 instruction of its patterns: measured
 * on Node 20 (about 15 and 205), rounded up.
 */
const BYTES_PER_SCHEMA_BYTE = 32;
const BYTES_PER_PATTERN_INSTRUCTION = 256;
/** An entry's fixed part: the key, the result object, the validator function. */
const ENTRY_OVERHEAD = 2048;

/** What an entry is estimated from. */
export interface CompiledSize {
  schemaBytes: number;
  patternCost: number;
}

/** Estimated heap bytes of one compiled schema. */
export function compiledBytes(size: CompiledSize): number {
  return (
    ENTRY_OVERHEAD +
    size.schemaBytes * BYTES_PER_SCHEMA_BYTE +
    size.patternCost * BYTES_PER_PATTERN_INSTRUCTION
  );
}

/**
 * Compile results keyed by the SHA-256 of the schema's compact JSON, least recently used
 * dropped first once the entries' estimated bytes pass `compiledCacheBytes` (a count alone
 * would let 64 large, pattern-heavy schemas keep hundreds of megabytes).
 */
export class CompiledCache<T extends object> {
  private entries = this.fresh();

  get(text: string): T | undefined {
    return this.entries.get(key(text));
  }

  set(text: string, value: T, size: CompiledSize): void {
    if (schemaDefaults().compiledCacheBytes === 0) return;
    this.entries.set(key(text), value, { size: compiledBytes(size) });
  }

  /** Estimated bytes held now. */
  get bytes(): number {
    return this.entries.calculatedSize;
  }

  clear(): void {
    this.entries = this.fresh();
  }

  private fresh(): LRUCache<string, T> {
    // lru-cache wants a positive maxSize: a cache of 0 bytes keeps nothing (see `set`).
    const maxSize = schemaDefaults().compiledCacheBytes;
    return new LRUCache<string, T>({ maxSize: Math.max(1, maxSize), maxEntrySize: Math.max(1, maxSize) });
  }
}

function key(text: string): string {
  return createHash('sha256').update(text).digest('base64');
}
