import { FINAL_REPORT_SHORT_NAME, FINAL_REPORT_TOOL } from './formats.js';
import { MAX_OPEN_TAG_LENGTH, type OpenTag } from './open-tag.js';

/** The slot that carries the final report. */
export const FINAL_SLOT = 'FINAL';

/** Undefined when the tag opens this session's final report; otherwise why it is ignored. */
export function whyIgnored(tag: OpenTag, nonce: string): string | undefined {
  const expected = `ai-agent-${nonce}-${FINAL_SLOT}`;
  if (tag.name === expected) {
    if (tag.selfClosing)
      return `self-closing <${expected}/> has no content; put the report between <${expected}> and </${expected}>`;
    const tool = tag.attributes.tool;
    if (tool !== undefined && tool !== FINAL_REPORT_TOOL && tool !== FINAL_REPORT_SHORT_NAME) {
      return `tool "${tool}" cannot be called through the tag: only ${FINAL_REPORT_TOOL} may be; call other tools natively (tool calls)`;
    }
    return undefined;
  }
  const mine = `ai-agent-${nonce}-`;
  if (tag.name.startsWith(mine)) {
    const slot = tag.name.slice(mine.length);
    return `unknown slot "${slot}": only <${expected}> carries the final report`;
  }
  const rest = tag.name.slice('ai-agent-'.length);
  const slotAt = rest.lastIndexOf('-');
  if (slotAt > 0) {
    const otherNonce = rest.slice(0, slotAt);
    return `nonce "${otherNonce}" does not match this session: the final report tag is <${expected}>`;
  }
  return `unknown tag <${tag.name}>: the final report tag is <${expected}>`;
}

export function emptyContentReason(nonce: string): string {
  return `empty report: <ai-agent-${nonce}-${FINAL_SLOT}> held no content (whitespace only); put the report inside the tag`;
}

/** `unexpected`: the offending character, undefined when the text ended inside the tag. */
export function malformedReason(nonce: string, unexpected: string | undefined, tooLong: boolean): string {
  const what = tooLong
    ? `longer than ${MAX_OPEN_TAG_LENGTH} characters`
    : unexpected === undefined
      ? 'the response ended before ">"'
      : `unexpected ${JSON.stringify(unexpected)}`;
  return `malformed opening tag (${what}); write it as <ai-agent-${nonce}-${FINAL_SLOT} tool="${FINAL_REPORT_TOOL}" status="success" format="...">`;
}
