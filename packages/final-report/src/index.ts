export { type CompiledValidator, type CompileResult, compileSchema } from '@agent/schema';
export { decodeBase64Text } from './base64.js';
export { formatAjvErrors, MAX_DIAGNOSTIC_LENGTH, MAX_DIAGNOSTICS } from './diagnostics.js';
export {
  type LenientJsonOptions,
  type LenientJsonResult,
  MAX_JSON_DEPTH,
  parseJsonLenient,
} from './json-lenient.js';
export { DEFAULT_JSON_SCHEMA } from './layer2-json.js';
export { MAX_REPAIR_ROUNDS, type NestedRepairResult, validateWithNestedRepair } from './nested-repair.js';
export { processFinalReport } from './process.js';
export { type RejectedReportInput, rejectedReport } from './rejected.js';
export { clampText, SLACK_LIMITS } from './slack/clamp.js';
export { recoverText as slackPlainText } from './slack/fallback.js';
export { markdownToMrkdwn } from './slack/markdown-to-mrkdwn.js';
export { normaliseMessages } from './slack/normalise.js';
export { SLACK_MESSAGES_SCHEMA } from './slack/schema.js';
export type { SlackBlock, SlackMessage, SlackText } from './slack/types.js';
export { FINAL_REPORT_ERROR_SLUGS, type FinalReportErrorSlug } from './slugs.js';
export { type SyntheticFailureInput, syntheticFailureReport } from './synthetic.js';
export { finalReportToolDefinition, finalReportToolSchema } from './tool-schema.js';
export type {
  FinalReportInput,
  PayloadEncoding,
  ProcessFailure,
  ProcessOptions,
  ProcessResult,
  ProcessSuccess,
  RawPayload,
} from './types.js';
export {
  checkWrapper,
  type WrapperCheck,
  type WrapperCheckOptions,
  type WrapperFields,
  type WrapperRejection,
} from './wrapper-check.js';
