import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, parseJsonLenient } from '../src/index.js';

interface Case {
  name: string;
  text: string;
  value: unknown;
  preferArray?: boolean;
  unwrap?: boolean;
}

// What real models send instead of clean JSON. Each row asserts the exact value recovered.
const CASES: Case[] = [
  { name: 'clean object', text: '{"a":1}', value: { a: 1 } },
  { name: 'fenced with language', text: '```json\n{"a": 1, "b": [true]}\n```', value: { a: 1, b: [true] } },
  { name: 'fenced without language', text: '```\n{"a": "x"}\n```', value: { a: 'x' } },
  { name: 'fenced JSON5 tag and CRLF', text: '```json5\r\n{"a": 2}\r\n```', value: { a: 2 } },
  { name: 'unclosed fence', text: '```json\n{"a": 3}', value: { a: 3 } },
  {
    name: 'fence with prose around',
    text: 'Sure! Here it is:\n```json\n{"ok": true}\n```\nLet me know.',
    value: { ok: true },
  },
  {
    name: 'fenced JSON holding a code fence in a string',
    text: '```json\n{"code": "```js\\nx()\\n```"}\n```',
    value: { code: '```js\nx()\n```' },
  },
  { name: 'prose before', text: 'Here is the report: {"title": "T"}', value: { title: 'T' } },
  { name: 'prose after', text: '{"title": "T"}\n\nI hope this helps!', value: { title: 'T' } },
  { name: 'prose on both sides', text: 'Result -> {"n": 5} <- done', value: { n: 5 } },
  { name: 'prose with brackets before the JSON', text: 'Note [see below] and {"a": 1}', value: { a: 1 } },
  { name: 'trailing comma in object', text: '{"a": 1, "b": 2,}', value: { a: 1, b: 2 } },
  { name: 'trailing comma in array', text: '{"list": [1, 2, 3,]}', value: { list: [1, 2, 3] } },
  { name: 'single quotes', text: "{'name': 'Ada', 'age': 36}", value: { name: 'Ada', age: 36 } },
  { name: 'smart quotes', text: '{\u201cname\u201d: \u201cAda\u201d}', value: { name: 'Ada' } },
  { name: 'unquoted keys', text: '{name: "Ada", tags: ["x"]}', value: { name: 'Ada', tags: ['x'] } },
  {
    name: 'raw newline inside a string',
    text: '{"body": "line 1\nline 2"}',
    value: { body: 'line 1\nline 2' },
  },
  { name: 'raw tab inside a string', text: '{"body": "a\tb"}', value: { body: 'a\tb' } },
  { name: 'unclosed object', text: '{"a": 1, "b": {"c": 2}', value: { a: 1, b: { c: 2 } } },
  { name: 'unclosed array', text: '[1, 2, {"x": 3}', value: [1, 2, { x: 3 }] },
  { name: 'unclosed string', text: '{"summary": "cut here', value: { summary: 'cut here' } },
  {
    name: 'unclosed object then an explanation',
    text: '{"a": 1, "b": "x"\n\nThat is all, thanks.',
    value: { a: 1, b: 'x' },
  },
  { name: 'line comment', text: '{\n  "a": 1, // the count\n  "b": 2\n}', value: { a: 1, b: 2 } },
  { name: 'block comment', text: '{"a": /* note */ 1}', value: { a: 1 } },
  {
    name: 'Python literals',
    text: "{'ok': True, 'err': None, 'done': False}",
    value: { ok: true, err: null, done: false },
  },
  {
    name: 'concatenated explanation after JSON',
    text: '{"a": 1}\nExplanation: the value is 1.',
    value: { a: 1 },
  },
  { name: 'two objects: the first wins', text: '{"a": 1}{"b": 2}', value: { a: 1 } },
  { name: 'byte order mark', text: '\ufeff{"a": 1}', value: { a: 1 } },
  { name: 'surrounding whitespace', text: '\n\n   {"a": 1}   \n', value: { a: 1 } },
  { name: 'backslash-escaped JSON', text: '{\\"a\\": 1, \\"b\\": \\"x\\"}', value: { a: 1, b: 'x' } },
  {
    name: 'JSON encoded as a string (unwrapped)',
    text: '"{\\"a\\": {\\"b\\": [1]}}"',
    value: { a: { b: [1] } },
    unwrap: true,
  },
  { name: 'JSON encoded as a string (kept without unwrap)', text: '"{\\"a\\": 1}"', value: '{"a": 1}' },
  { name: 'missing comma between fields', text: '{"a": 1 "b": 2}', value: { a: 1, b: 2 } },
  { name: 'missing value', text: '{"a": 1, "b": }', value: { a: 1, b: null } },
  { name: 'leading-dot number', text: '{"p": .5}', value: { p: 0.5 } },
  { name: 'mismatched closing bracket', text: 'Answer: {"a": [1, 2}', value: { a: [1, 2] } },
  { name: 'JSONP-style wrapper', text: 'callback({"a": 1})', value: { a: 1 } },
  {
    name: 'array preferred over inner objects',
    text: 'Messages:\n[{"blocks": []}, {"blocks": []}]',
    value: [{ blocks: [] }, { blocks: [] }],
    preferArray: true,
  },
  {
    name: 'preferArray with prose braces first',
    text: 'Use {braces} sparingly\n[{"a": 1}]',
    value: [{ a: 1 }],
    preferArray: true,
  },
  { name: 'quotes inside a string', text: '{"q": "He said \\"hi\\""}', value: { q: 'He said "hi"' } },
  { name: 'brackets inside strings', text: 'Here: {"a": "}{][", "b": 1} end', value: { a: '}{][', b: 1 } },
  { name: 'scalar JSON stays scalar', text: '42', value: 42 },
];

describe('parseJsonLenient: malformed JSON models produce', () => {
  it('has at least 30 cases', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(30);
  });

  it.each(CASES)('$name', ({ text, value, preferArray, unwrap }) => {
    const result = parseJsonLenient(text, {
      ...(preferArray ? { preferArray } : {}),
      ...(unwrap ? { unwrapStringified: unwrap } : {}),
    });
    expect(result).toMatchObject({ ok: true });
    if (!result.ok) return;
    expect(result.value).toEqual(value);
  });

  it('takes strict JSON without reporting a repair', () => {
    expect(parseJsonLenient('{"a": [1, 2]}')).toEqual({
      ok: true,
      value: { a: [1, 2] },
      repaired: false,
      repairs: [],
    });
  });

  it('reports what it repaired', () => {
    const result = parseJsonLenient('Sure:\n```json\n{"a": 1,}\n```');
    expect(result.ok && result.repaired).toBe(true);
    expect(result.ok && result.repairs).toEqual([
      'took the JSON out of a Markdown code fence',
      'repaired malformed JSON (quotes, commas, brackets, comments or literals)',
    ]);
  });
});

describe('parseJsonLenient: failing cleanly', () => {
  it.each([
    ['empty text', '', 'the text is empty'],
    ['whitespace only', '  \n\t ', 'the text is empty'],
    ['prose only', 'I could not find anything useful.', 'no JSON object or array was found in the text'],
    ['a refusal', "I'm sorry, I can't help with that", 'no JSON object or array was found in the text'],
    ['bare Python literal', 'True', 'no JSON object or array was found in the text'],
    ['only a BOM', '\ufeff', 'the text is empty'],
    ['braces that are not JSON', 'Fill in {name} here', 'the JSON could not be parsed or repaired'],
  ])('%s', (_name, text, error) => {
    expect(parseJsonLenient(text)).toEqual({ ok: false, error });
  });

  it('does not throw on a non-string at run time', () => {
    expect(parseJsonLenient(42 as unknown as string)).toEqual({
      ok: false,
      error: 'expected a string, got number',
    });
  });
});

describe('parseJsonLenient: nesting deeper than the stack allows', () => {
  const tooDeep = `the JSON nests deeper than the limit of ${MAX_JSON_DEPTH} levels`;

  it.each([
    ['valid JSON 100,000 levels deep', `${'['.repeat(100_000)}${']'.repeat(100_000)}`],
    ['unclosed brackets 100,000 deep', '['.repeat(100_000)],
    ['an unclosed object chain in a fence', `\`\`\`json\n${'{"a":'.repeat(50_000)}\n\`\`\``],
  ])('%s is refused with the limit, not a stack overflow', (_name, text) => {
    expect(parseJsonLenient(text)).toEqual({ ok: false, error: tooDeep });
  });

  it('JSON at the limit still parses', () => {
    const text = `${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`;
    expect(parseJsonLenient(text).ok).toBe(true);
  });
});
