export { type DetectAction, MAX_SPANS_PER_TEXT } from './detect.js';
export {
  JSON_SCHEMA_ACTIONS,
  type JsonSchemaAction,
  type JsonSchemaGuardrailOptions,
  jsonSchemaGuardrail,
} from './json-schema.js';
export {
  LENGTH_UNITS,
  type LengthUnit,
  type MaxLengthGuardrailOptions,
  maxLengthGuardrail,
} from './max-length.js';
export type { BuiltinOptions } from './options.js';
export { PII_KINDS, type PiiKind } from './pii/detectors.js';
export { PII_ACTIONS, type PiiAction, type PiiGuardrailOptions, piiGuardrail } from './pii.js';
export { REGEX_ACTIONS, type RegexAction, type RegexGuardrailOptions, regexGuardrail } from './regex.js';
export { MAX_VALUE_DEPTH } from './subject.js';
export {
  MAX_WORD_ENTRIES,
  MAX_WORD_ENTRY_LENGTH,
  WORDS_ACTIONS,
  type WordsAction,
  type WordsGuardrailOptions,
  wordsGuardrail,
} from './words.js';
