export { type XmlOptionProblem, XmlTransportError, type XmlTransportErrorCode } from './errors.js';
export { FinalSlotParser } from './final-slot-parser.js';
export {
  FINAL_REPORT_TOOL,
  type ForcedFinalReason,
  type ReportFormat,
  type ReportStatus,
  STRUCTURED_REPORT_FORMATS,
} from './formats.js';
export {
  type JudgeUnclosedOptions,
  judgeUnclosed,
  type UnclosedJudgement,
  type UnclosedVerdict,
} from './judge-unclosed.js';
export { assertNonce, createNonce, finalTagName } from './nonce.js';
export { MAX_OPEN_TAG_LENGTH, type OpenTag, parseOpenTag } from './open-tag.js';
export { parseFinalSlot } from './parse-final-slot.js';
export type {
  FinalSlotParserOptions,
  FinalSlotResult,
  IgnoredTag,
  LeadingThink,
  SlotEvent,
  SlotFound,
  SlotNotFound,
  SlotSink,
} from './slot-events.js';
export { TextAccumulator } from './text-accumulator.js';
export { stripLeadingThink, type ThinkSplit } from './think.js';
export {
  type ForcedFinalTurn,
  joinXmlNext,
  renderXmlNext,
  renderXmlNextBody,
  renderXmlNextHead,
  type XmlNextOptions,
} from './xml-next.js';
