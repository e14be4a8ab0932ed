import { FinalSlotParser } from './final-slot-parser.js';
import type { FinalSlotParserOptions, FinalSlotResult } from './slot-events.js';

/** `FinalSlotParser` over a whole text in one call: the same result as any chunked feed. */
export function parseFinalSlot(text: string, options: FinalSlotParserOptions): FinalSlotResult {
  const parser = new FinalSlotParser(options);
  parser.push(text);
  parser.end();
  return parser.result;
}
