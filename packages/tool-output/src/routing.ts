import type { ExtractionStrategy } from './types.js';

export interface RoutingInput {
  /** Chunks the output needs for full-chunked (Infinity when no chunk fits). */
  chunkCount: number;
  /** `maxChunks` setting. */
  maxChunks: number;
  /** Bytes per line of the output. */
  avgLineBytes: number;
  /** `avgLineBytesThreshold` setting. */
  avgLineBytesThreshold: number;
}

export interface Route {
  strategy: Exclude<ExtractionStrategy, 'truncate'>;
  /** Why, in a few words for the log. */
  reason: string;
}

/**
 * The `auto` routing table:
 *
 * | chunks needed <= maxChunks | average line > threshold | strategy |
 * | --- | --- | --- |
 * | yes | any | full-chunked |
 * | no | yes | full-chunked (lines too long to grep usefully) |
 * | no | no | read-grep |
 */
export function route(input: RoutingInput): Route {
  const chunks = Number.isFinite(input.chunkCount) ? String(input.chunkCount) : 'no';
  if (input.chunkCount <= input.maxChunks) {
    return {
      strategy: 'full-chunked',
      reason: `fits in ${chunks} chunk${input.chunkCount === 1 ? '' : 's'} (maxChunks ${input.maxChunks})`,
    };
  }
  if (input.avgLineBytes > input.avgLineBytesThreshold) {
    return {
      strategy: 'full-chunked',
      reason: `average line ${input.avgLineBytes} bytes > ${input.avgLineBytesThreshold}`,
    };
  }
  return {
    strategy: 'read-grep',
    reason: `needs ${chunks} chunks (maxChunks ${input.maxChunks}) and the average line is ${input.avgLineBytes} bytes (<= ${input.avgLineBytesThreshold})`,
  };
}
