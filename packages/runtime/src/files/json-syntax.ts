import { createRequire } from 'node:module';
import type * as JsoncParser from 'jsonc-parser';
import type { ParseError } from 'jsonc-parser';

/** jsonc-parser, loaded by the first text `JSON.parse` rejected. */
let jsonc: typeof JsoncParser | undefined;
function parser(): typeof JsoncParser {
  jsonc ??= createRequire(import.meta.url)('jsonc-parser') as typeof JsoncParser;
  return jsonc;
}

// By `printParseErrorCode` name (the codes are a const enum, not importable as values).
const WORDS: Partial<Record<string, string>> = {
  InvalidSymbol: 'unexpected character',
  InvalidNumberFormat: 'invalid number',
  PropertyNameExpected: 'expected a property name in double quotes',
  ValueExpected: 'expected a value',
  ColonExpected: 'expected `:`',
  CommaExpected: 'expected `,`',
  CloseBraceExpected: 'expected `}`',
  CloseBracketExpected: 'expected `]`',
  EndOfFileExpected: 'unexpected text after the JSON value',
  InvalidCommentToken: 'comments are not allowed in JSON',
  UnexpectedEndOfComment: 'unterminated comment',
  UnexpectedEndOfString: 'unterminated string',
  UnexpectedEndOfNumber: 'incomplete number',
  InvalidUnicode: 'invalid \\u escape',
  InvalidEscapeCharacter: 'invalid escape sequence in a string',
  InvalidCharacter: 'a control character inside a string',
};

export interface JsonSyntaxError {
  /** 1-based. */
  line: number;
  column: number;
  /** What is wrong, in words that never quote the text (`JSON.parse`'s messages do). */
  message: string;
}

/**
 * Where `text`, which `JSON.parse` rejected, first stops being JSON, and why. Undefined when
 * the place cannot be found.
 */
export function jsonSyntaxError(text: string): JsonSyntaxError | undefined {
  const errors: ParseError[] = [];
  const { parse, printParseErrorCode } = parser();
  parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const first = errors[0];
  if (first === undefined) return undefined;
  let line = 1;
  let lineStart = 0;
  for (
    let index = text.indexOf('\n');
    index !== -1 && index < first.offset;
    index = text.indexOf('\n', index + 1)
  ) {
    line++;
    lineStart = index + 1;
  }
  return {
    line,
    column: first.offset - lineStart + 1,
    message: WORDS[printParseErrorCode(first.error)] ?? 'not valid JSON',
  };
}
