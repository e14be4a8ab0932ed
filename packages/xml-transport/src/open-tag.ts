import { isWhitespaceCode } from './whitespace.js';

/** Every tag this package looks at starts with this. */
export const TAG_PREFIX = '<ai-agent-';
/**
 * Longest opening tag considered, in UTF-16 code units. It bounds what the streaming parser
 * holds back: a longer candidate is plain text.
 */
export const MAX_OPEN_TAG_LENGTH = 1024;

/** Result of feeding one character to the scanner. */
export const SCAN_MORE = 0;
export const SCAN_DONE = 1;
export const SCAN_FAIL = 2;
export type ScanStep = typeof SCAN_MORE | typeof SCAN_DONE | typeof SCAN_FAIL;

// Scanner states.
const PREFIX = 0;
const NAME = 1;
const ATTR_SPACE = 2;
const ATTR_NAME = 3;
const AFTER_ATTR_NAME = 4;
const AFTER_EQ = 5;
const DOUBLE_QUOTED = 6;
const SINGLE_QUOTED = 7;
const UNQUOTED = 8;
const AFTER_VALUE = 9;
const SELF_CLOSE = 10;

const LT = 0x3c;
const GT = 0x3e;
const SLASH = 0x2f;
const EQ = 0x3d;
const DQ = 0x22;
const SQ = 0x27;
const BACKTICK = 0x60;

function isAsciiLetter(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}
function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}
/** Tag name characters after the prefix: A-Z a-z 0-9 _ - */
function isNameChar(c: number): boolean {
  return isAsciiLetter(c) || isDigit(c) || c === 0x5f || c === 0x2d;
}
function isAttrNameStart(c: number): boolean {
  return isAsciiLetter(c) || c === 0x5f || c === 0x3a;
}
function isAttrNameChar(c: number): boolean {
  return isAttrNameStart(c) || isDigit(c) || c === 0x2d || c === 0x2e;
}

/** A completed opening tag, taken apart. */
export interface OpenTag {
  /** The tag name without `<`, e.g. `ai-agent-1a2b3c4d-FINAL`. */
  name: string;
  /** Attributes as written (first occurrence wins; a bare attribute has the value ''). */
  attributes: Record<string, string>;
  selfClosing: boolean;
}

/**
 * Recognises an opening tag `<ai-agent-NAME attr="v" attr2='v' attr3=v bare>` one character
 * at a time, so the streaming parser can follow it across chunk borders. It records only
 * offsets; `build(raw)` cuts the name and attributes out of the tag text at the end.
 *
 * `<` is never accepted after the first character (not even inside quoted values): when a
 * candidate fails, the text it consumed therefore holds no other tag start, and the caller
 * resumes with the failing character without re-reading anything.
 */
export class OpenTagScanner {
  private state = PREFIX;
  private pos = 0;
  private nameEnd = 0;
  /** Flat [nameStart, nameEnd, valueStart, valueEnd] per attribute; valueStart -1 when bare. */
  private readonly marks: number[] = [];
  private selfClosing = false;

  /** True once the tag name is complete (used to report malformed tags worth mentioning). */
  get nameComplete(): boolean {
    return this.state !== PREFIX && this.state !== NAME;
  }

  /** True when the candidate reached MAX_OPEN_TAG_LENGTH without a `>`. */
  get atLimit(): boolean {
    return this.pos >= MAX_OPEN_TAG_LENGTH;
  }

  reset(): void {
    this.state = PREFIX;
    this.pos = 0;
    this.nameEnd = 0;
    this.marks.length = 0;
    this.selfClosing = false;
  }

  /** Feeds the next character; on SCAN_FAIL the character is not part of the tag. */
  feed(c: number): ScanStep {
    if (this.pos >= MAX_OPEN_TAG_LENGTH) return SCAN_FAIL;
    const step = this.step(c);
    if (step !== SCAN_FAIL) this.pos++;
    return step;
  }

  private step(c: number): ScanStep {
    const pos = this.pos;
    switch (this.state) {
      case PREFIX:
        if (c !== TAG_PREFIX.charCodeAt(pos)) return SCAN_FAIL;
        if (pos === TAG_PREFIX.length - 1) this.state = NAME;
        return SCAN_MORE;
      case NAME:
        if (isNameChar(c)) return SCAN_MORE;
        if (pos === TAG_PREFIX.length) return SCAN_FAIL;
        this.nameEnd = pos;
        return this.afterToken(c, false);
      case ATTR_SPACE:
        if (isWhitespaceCode(c)) return SCAN_MORE;
        return this.afterToken(c, true);
      case ATTR_NAME:
        // The name's own characters stay on this path; only its end takes a call.
        return isAttrNameChar(c) ? SCAN_MORE : this.attributeNameEnd(c, pos);
      case AFTER_ATTR_NAME:
        if (isWhitespaceCode(c)) return SCAN_MORE;
        if (c === EQ) {
          this.state = AFTER_EQ;
          return SCAN_MORE;
        }
        return this.afterToken(c, true);
      case AFTER_EQ:
        return this.valueStart(c, pos);
      case DOUBLE_QUOTED:
      case SINGLE_QUOTED:
        if (c === LT) return SCAN_FAIL;
        if (c === (this.state === DOUBLE_QUOTED ? DQ : SQ)) {
          this.marks[this.marks.length - 1] = pos;
          this.state = AFTER_VALUE;
        }
        return SCAN_MORE;
      case UNQUOTED:
        return this.unquotedValue(c, pos);
      case AFTER_VALUE:
        if (isWhitespaceCode(c)) {
          this.state = ATTR_SPACE;
          return SCAN_MORE;
        }
        return this.afterToken(c, true);
      default:
        // SELF_CLOSE: only `>` may follow `/`.
        if (c !== GT) return SCAN_FAIL;
        this.selfClosing = true;
        return SCAN_DONE;
    }
  }

  /** After a name, an attribute or a value: whitespace, `/>`, `>` or (when allowed) a new attribute. */
  private afterToken(c: number, attributeMayStart: boolean): ScanStep {
    if (c === GT) return SCAN_DONE;
    if (c === SLASH) {
      this.state = SELF_CLOSE;
      return SCAN_MORE;
    }
    if (isWhitespaceCode(c)) {
      this.state = ATTR_SPACE;
      return SCAN_MORE;
    }
    if (attributeMayStart && isAttrNameStart(c)) {
      this.marks.push(this.pos);
      this.state = ATTR_NAME;
      return SCAN_MORE;
    }
    return SCAN_FAIL;
  }

  /** The first character after an attribute name (at `pos`, where the name ends). */
  private attributeNameEnd(c: number, pos: number): ScanStep {
    this.marks.push(pos, -1, -1);
    if (c === EQ) {
      this.state = AFTER_EQ;
      return SCAN_MORE;
    }
    if (isWhitespaceCode(c)) {
      this.state = AFTER_ATTR_NAME;
      return SCAN_MORE;
    }
    return this.afterToken(c, false);
  }

  /** Inside an unquoted value: whitespace or `>` ends it; a quote, `<`, `=` or backtick fails the tag. */
  private unquotedValue(c: number, pos: number): ScanStep {
    if (isWhitespaceCode(c) || c === GT) {
      this.marks[this.marks.length - 1] = pos;
      if (c === GT) return SCAN_DONE;
      this.state = ATTR_SPACE;
      return SCAN_MORE;
    }
    if (c === DQ || c === SQ || c === LT || c === EQ || c === BACKTICK) return SCAN_FAIL;
    return SCAN_MORE;
  }

  private valueStart(c: number, pos: number): ScanStep {
    if (isWhitespaceCode(c)) return SCAN_MORE;
    if (c === DQ || c === SQ) {
      this.marks[this.marks.length - 2] = pos + 1;
      this.marks[this.marks.length - 1] = pos + 1;
      this.state = c === DQ ? DOUBLE_QUOTED : SINGLE_QUOTED;
      return SCAN_MORE;
    }
    if (c === LT || c === GT || c === EQ || c === BACKTICK) return SCAN_FAIL;
    this.marks[this.marks.length - 2] = pos;
    this.state = UNQUOTED;
    return SCAN_MORE;
  }

  /** Takes the completed tag apart; `raw` is the exact text fed since the last reset. */
  build(raw: string): OpenTag {
    // No prototype (an attribute may be named `__proto__`), yet fast properties: V8 keeps an
    // `Object.create(null)` object as a hash table (~160 bytes for three attributes, kept with the report).
    const attributes: Record<string, string> = Object.setPrototypeOf({}, null);
    const marks = this.marks;
    for (let i = 0; i + 3 < marks.length; i += 4) {
      const name = raw.slice(marks[i]!, marks[i + 1]!);
      const valueStart = marks[i + 2]!;
      if (Object.hasOwn(attributes, name)) continue;
      attributes[name] = valueStart === -1 ? '' : raw.slice(valueStart, marks[i + 3]!);
    }
    return { name: raw.slice(1, this.nameEnd), attributes, selfClosing: this.selfClosing };
  }
}

/**
 * Parses one complete opening tag such as `<ai-agent-1a2b3c4d-FINAL format="json">`, with
 * the streaming parser's grammar. Returns undefined when `text` is not exactly such a tag.
 */
export function parseOpenTag(text: string): OpenTag | undefined {
  const scanner = new OpenTagScanner();
  for (let i = 0; i < text.length; i++) {
    const step = scanner.feed(text.charCodeAt(i));
    if (step === SCAN_FAIL) return undefined;
    if (step === SCAN_DONE) return i === text.length - 1 ? scanner.build(text) : undefined;
  }
  return undefined;
}
