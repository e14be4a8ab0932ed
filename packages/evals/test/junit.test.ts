import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { create } from 'xmlbuilder2';
import { validateXML } from 'xmllint-wasm';
import type { JUnitSuite } from '../src/index.js';
import { toJUnitXml } from '../src/index.js';

const schema = readFileSync(new URL('./fixtures/junit.xsd', import.meta.url), 'utf8');

async function validate(xml: string): Promise<string[]> {
  const result = await validateXML({ xml: [{ fileName: 'report.xml', contents: xml }], schema: [schema] });
  return result.errors.map((e) => e.message);
}

/** The document read back by a real XML parser (entities decoded): attributes and text per element. */
interface Read {
  attrs: Record<string, string>;
  text: string;
  children: Read[];
}

// The parser's DOM nodes, as far as these tests read them (the package ships no DOM lib types).
interface DomElement {
  nodeType: number;
  attributes: ArrayLike<{ name: string; value: string }>;
  textContent: string | null;
  childNodes: ArrayLike<DomElement>;
}

function readBack(xml: string): Read {
  const toRead = (element: DomElement): Read => ({
    attrs: Object.fromEntries(Array.from(element.attributes, (a) => [a.name, a.value])),
    text: element.textContent ?? '',
    children: Array.from(element.childNodes)
      .filter((node) => node.nodeType === 1)
      .map(toRead),
  });
  return toRead(create(xml).root().node as unknown as DomElement);
}

function child(parent: Read, index: number): Read {
  const found = parent.children[index];
  if (!found) throw new Error(`no child ${index}`);
  return found;
}

// Model text as it reaches a failure message: markup, a NUL, an escape sequence, a lone surrogate.
const modelText = 'expected <ok> & "done"\u0000 got \u001b[31mred\u001b[0m \ud800 end\ttab\nline 2';

const suites: JUnitSuite[] = [
  {
    name: 'records',
    timeMs: 2500,
    cases: [
      { name: 'a.json', classname: 'replay.records', timeMs: 1200, output: 'matched under report' },
      {
        name: 'b.json',
        classname: 'replay.records',
        timeMs: 1300,
        failure: { message: modelText, type: 'request', details: `--- recorded\n+++ replayed\n${modelText}` },
      },
      {
        name: 'c.json',
        classname: 'replay.records',
        timeMs: 0,
        error: { message: 'record version 1 cannot be replayed' },
      },
    ],
  },
  {
    name: 'dataset.yaml',
    timeMs: 900.4,
    cases: [{ name: 'case-3', classname: 'eval.dataset', timeMs: Number.NaN, skipped: 'budget reached' }],
  },
];

describe('toJUnitXml', () => {
  it('writes a document the JUnit schema accepts, with the counts a CI shows', async () => {
    const xml = toJUnitXml(suites, 'agent replay');
    expect(await validate(xml)).toEqual([]);
    const doc = readBack(xml);
    expect(doc.attrs).toEqual({
      name: 'agent replay',
      tests: '4',
      failures: '1',
      errors: '1',
      time: '3.400',
    });
    const [records, dataset] = [child(doc, 0), child(doc, 1)];
    expect(records.attrs).toEqual({
      name: 'records',
      tests: '3',
      failures: '1',
      errors: '1',
      skipped: '0',
      time: '2.500',
    });
    expect(dataset.attrs).toMatchObject({ tests: '1', failures: '0', skipped: '1', time: '0.900' });
    expect(child(dataset, 0).attrs).toEqual({ name: 'case-3', classname: 'eval.dataset', time: '0.000' });
    expect(child(child(dataset, 0), 0).attrs).toEqual({ message: 'budget reached' });
    const passed = child(records, 0);
    expect(passed.children.map((c) => c.text)).toEqual(['matched under report']);
    const errored = child(child(records, 2), 0);
    expect(errored.attrs).toEqual({ message: 'record version 1 cannot be replayed' });
    expect(errored.text).toBe('record version 1 cannot be replayed');
  });

  it('drops characters XML 1.0 forbids and escapes markup, keeping the rest of the text', async () => {
    const xml = toJUnitXml(suites);
    expect(xml.includes('\u0000') || xml.includes('\u001b')).toBe(false);
    expect(xml).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
    expect(await validate(xml)).toEqual([]);
    const failure = child(child(child(readBack(xml), 0), 1), 0);
    expect(failure.attrs.type).toBe('request');
    expect(failure.attrs.message).toBe('expected <ok> & "done" got [31mred[0m  end tab line 2');
    expect(failure.text).toBe(
      '--- recorded\n+++ replayed\nexpected <ok> & "done" got [31mred[0m  end\ttab\nline 2',
    );
  });

  it('keeps a model-sized failure bounded: a one-line message and a cut body', async () => {
    const huge = `${'why '.repeat(50_000)}\n`;
    const xml = toJUnitXml([
      {
        name: 's',
        timeMs: 1,
        cases: [{ name: 'big', classname: 'eval.s', timeMs: 1, failure: { message: huge } }],
      },
    ]);
    expect(await validate(xml)).toEqual([]);
    const failure = child(child(child(readBack(xml), 0), 0), 0);
    expect(failure.attrs.message?.length).toBe(500);
    expect(failure.attrs.message?.endsWith('…')).toBe(true);
    expect(failure.text).toMatch(/… \(134465 characters cut\)$/);
    expect(xml.length).toBeLessThan(80_000);
  });

  it('writes an empty run as an empty, valid report', async () => {
    const xml = toJUnitXml([]);
    expect(await validate(xml)).toEqual([]);
    expect(readBack(xml).attrs).toEqual({ tests: '0', failures: '0', errors: '0', time: '0.000' });
  });

  it('the schema is not a rubber stamp: it rejects what CI readers would choke on', async () => {
    const valid = toJUnitXml(suites);
    expect(await validate(valid.replace(/ classname="[^"]*"/, ''))).not.toEqual([]);
    expect(await validate(valid.replace('tests="4"', 'tests="four"'))).not.toEqual([]);
    expect(
      await validate(valid.replace('<system-out>', '<stdout>').replace('</system-out>', '</stdout>')),
    ).not.toEqual([]);
    expect(await validate(valid.replace('matched under report', 'bad \u0001 char'))).not.toEqual([]);
  });
});
