import fc from 'fast-check';
import { CLOSE, NONCE, OPEN } from './helpers.js';

const VALID_NAME = `ai-agent-${NONCE}-FINAL`;

export const whitespace = fc.constantFrom('', ' ', '  ', '\n', '\t', '\r\n', '\u00a0');

/** One attribute as a model might write it: any quote style, spacing, sometimes unquoted. */
function attribute(name: string, value: string) {
  return fc
    .tuple(fc.constantFrom('"', "'", ''), fc.constantFrom('', ' '), fc.constantFrom('', ' '))
    .map(([quote, before, after]) => `${name}${before}=${after}${quote}${value}${quote}`);
}

const attributePool = (tool: string, requireTool: boolean) =>
  fc
    .tuple(
      fc.constantFrom('success', 'failure', 'partial'),
      fc.constantFrom('json', 'markdown', 'slack-block-kit', 'text'),
    )
    .chain(([status, format]) =>
      fc
        .shuffledSubarray(
          [
            ['tool', tool],
            ['status', status],
            ['format', format],
            ['data-x', 'v'],
          ] as const,
          { minLength: 0 },
        )
        .filter((pairs) => !requireTool || pairs.some(([name]) => name === 'tool')),
    )
    .chain(
      (pairs): fc.Arbitrary<string[]> =>
        pairs.length === 0 ? fc.constant([]) : fc.tuple(...pairs.map(([n, v]) => attribute(n, v))),
    );

/** An opening tag with the given name; `selfClosing` ends it with `/>`; a given `tool` is always written. */
export function openTag(name: string, options: { tool?: fc.Arbitrary<string>; selfClosing?: boolean } = {}) {
  return fc
    .tuple(options.tool ?? fc.constant('agent__final_report'), whitespace, fc.constantFrom(' ', '\n', '  '))
    .chain(([tool, trailing, separator]) =>
      attributePool(tool, options.tool !== undefined).map(
        (attrs) =>
          `<${name}${attrs.map((a) => `${separator}${a}`).join('')}${options.selfClosing ? ` ${trailing}/>` : `${trailing}>`}`,
      ),
    );
}

export const validOpen = openTag(VALID_NAME);

export const invalidOpen = fc.oneof(
  openTag(`ai-agent-${'0'.repeat(8)}-FINAL`),
  fc
    .stringMatching(/^[0-9a-f]{8}$/)
    .chain((nonce) => openTag(`ai-agent-${nonce === NONCE ? 'ffffffff' : nonce}-FINAL`)),
  fc.constantFrom('PROGRESS', 'final', 'FINALX', 'X').chain((slot) => openTag(`ai-agent-${NONCE}-${slot}`)),
  openTag('ai-agent-foo'),
  openTag(VALID_NAME, { tool: fc.constant('web_search') }),
  openTag(VALID_NAME, { selfClosing: true }),
);

/** Text that holds no `<`, so it never forms or breaks a tag. */
export const plainText = fc.string({
  unit: fc.constantFrom(
    'a',
    'b',
    'z',
    ' ',
    '\n',
    '\u00a0',
    '>',
    '"',
    "'",
    '=',
    '/',
    '-',
    'é',
    '😀',
    '{',
    '}',
  ),
  maxLength: 12,
});

/** Text built from the characters tags are made of, `<` included. */
const trickyText = fc.string({
  unit: fc.constantFrom(
    '<',
    '>',
    '/',
    'a',
    'i',
    '-',
    'g',
    'e',
    'n',
    't',
    'F',
    'I',
    'N',
    'A',
    'L',
    '"',
    "'",
    '=',
    ' ',
    '\n',
    'x',
    '😀',
  ),
  maxLength: 16,
});

function prefixOf(text: string) {
  return fc.nat({ max: text.length }).map((n) => text.slice(0, n));
}

const fragment = fc.oneof(
  prefixOf(OPEN),
  prefixOf(CLOSE),
  prefixOf('<think>'),
  prefixOf('</think>'),
  prefixOf(`<ai-agent-${NONCE}-FINAL format='json' `),
  fc.constant('<ai-agent-'),
);

const closeTag = fc.constantFrom(CLOSE, CLOSE, '</ai-agent-deadbeef-FINAL>', `</ai-agent-${NONCE}-FINAL >`);

const leadingThink = fc
  .tuple(whitespace, trickyText, fc.constantFrom('</think>', '</think>', '</think>', '</think>', '', '</thi'))
  .map(([ws, body, end]) => `${ws}<think>${body}${end}`);

/** A report with any kind of body, closed or not. */
const report = fc
  .tuple(validOpen, fc.oneof(plainText, trickyText, whitespace), fc.oneof(closeTag, fc.constant('')))
  .map((parts) => parts.join(''));

/** Responses mixing everything: reports, wrong tags, fragments, think blocks, noise. */
export const messyResponse = fc
  .tuple(
    fc.option(leadingThink, { freq: 3 }),
    fc.array(
      fc.oneof(trickyText, plainText, validOpen, invalidOpen, closeTag, fragment, whitespace, report),
      {
        maxLength: 12,
      },
    ),
  )
  .map(([think, parts]) => (think ?? '') + parts.join(''));

/** A piece of a well-formed response whose meaning the oracle knows. */
export type Segment =
  | { kind: 'text'; text: string }
  | { kind: 'valid-open'; text: string }
  | { kind: 'invalid-open'; text: string }
  | { kind: 'close'; text: string };

export const segment: fc.Arbitrary<Segment> = fc.oneof(
  { weight: 4, arbitrary: plainText.map((text) => ({ kind: 'text' as const, text })) },
  { weight: 1, arbitrary: whitespace.map((text) => ({ kind: 'text' as const, text })) },
  { weight: 2, arbitrary: validOpen.map((text) => ({ kind: 'valid-open' as const, text })) },
  { weight: 2, arbitrary: invalidOpen.map((text) => ({ kind: 'invalid-open' as const, text })) },
  { weight: 2, arbitrary: fc.constant({ kind: 'close' as const, text: CLOSE }) },
);

export const wellFormedResponse = fc.record({
  think: fc.option(fc.record({ lead: whitespace, body: plainText, closed: fc.boolean() }), { freq: 3 }),
  segments: fc.array(segment, { maxLength: 10 }),
});

/** Cut positions for a text, or one-character chunks. */
export const chunking = fc.oneof(
  { weight: 4, arbitrary: fc.array(fc.nat({ max: 10_000 }), { maxLength: 30 }) },
  { weight: 1, arbitrary: fc.constant('singles' as const) },
);
