// `@agent/protocol/util`: the small helpers every package needs, in one place. Like the rest of
// the protocol package it has no dependencies and does no I/O.
export { abortableSleep } from './abortable-sleep.js';
export { countNewlines, utf8PrefixLength } from './bytes.js';
export { DURATION_ALLOWED, parseDurationMs } from './duration.js';
export { describeValue, errorMessage } from './error-text.js';
export { type FileKindStats, nonRegularKind } from './file-kind.js';
export { finiteNumber, isPositiveInteger, isRecord } from './guards.js';
export { conversationIdProblem, isStoreId, STORE_ID_ALLOWED } from './store-ids.js';
export { CHARS_PER_TOKEN, heuristicTokens } from './tokens.js';
export { type ParsedToolArguments, parseToolArguments } from './tool-arguments.js';
