import { create } from 'xmlbuilder2';
import type { JUnitCase, JUnitSuite } from '../types.js';

type XMLBuilder = ReturnType<typeof create>;

// CI systems show `message` on one line; the whole text goes in the element's body.
const MESSAGE_MAX_CHARS = 500;
// A model can write megabytes into a report; CI artefacts should stay readable.
const BODY_MAX_CHARS = 64 * 1024;

/**
 * The JUnit XML of suites (replay: one suite per directory; eval: one per dataset), in the
 * Surefire/Jenkins form GitLab, GitHub and Jenkins read. Characters XML 1.0 forbids
 * (control characters, lone surrogates), which model text can carry, are dropped.
 */
export function toJUnitXml(suites: readonly JUnitSuite[], name?: string): string {
  const root = create({ version: '1.0', encoding: 'UTF-8', invalidCharReplacement: '' });
  const totals = suites.map(count);
  const testsuites = root.ele('testsuites', {
    ...(name === undefined ? {} : { name }),
    tests: sum(totals, 'tests'),
    failures: sum(totals, 'failures'),
    errors: sum(totals, 'errors'),
    time: seconds(suites.reduce((ms, suite) => ms + suite.timeMs, 0)),
  });
  suites.forEach((suite, i) => {
    const total = totals[i] as Counts;
    const element = testsuite(testsuites, suite, total);
    for (const c of suite.cases) testcase(element, c);
  });
  return root.end({ prettyPrint: true });
}

interface Counts {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
}

function count(suite: JUnitSuite): Counts {
  const counts = { tests: suite.cases.length, failures: 0, errors: 0, skipped: 0 };
  for (const c of suite.cases) {
    if (c.failure) counts.failures++;
    if (c.error) counts.errors++;
    if (c.skipped !== undefined) counts.skipped++;
  }
  return counts;
}

function sum(totals: readonly Counts[], key: keyof Counts): string {
  return String(totals.reduce((n, t) => n + t[key], 0));
}

function testsuite(parent: XMLBuilder, suite: JUnitSuite, total: Counts): XMLBuilder {
  return parent.ele('testsuite', {
    name: suite.name,
    tests: String(total.tests),
    failures: String(total.failures),
    errors: String(total.errors),
    skipped: String(total.skipped),
    time: seconds(suite.timeMs),
  });
}

function testcase(parent: XMLBuilder, c: JUnitCase): void {
  const element = parent.ele('testcase', {
    name: c.name,
    classname: c.classname,
    time: seconds(c.timeMs),
  });
  if (c.skipped !== undefined) element.ele('skipped', { message: oneLine(c.skipped) });
  for (const [tag, problem] of [
    ['failure', c.failure],
    ['error', c.error],
  ] as const) {
    if (!problem) continue;
    const node = element.ele(tag, {
      message: oneLine(problem.message),
      ...(problem.type === undefined ? {} : { type: problem.type }),
    });
    node.txt(bounded(problem.details ?? problem.message));
  }
  if (c.output !== undefined && c.output !== '') element.ele('system-out').txt(bounded(c.output));
}

/** Seconds with millisecond precision; anything not a finite non-negative number is 0. */
function seconds(ms: number): string {
  return (Number.isFinite(ms) && ms > 0 ? ms / 1000 : 0).toFixed(3);
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > MESSAGE_MAX_CHARS ? `${line.slice(0, MESSAGE_MAX_CHARS - 1)}…` : line;
}

function bounded(text: string): string {
  if (text.length <= BODY_MAX_CHARS) return text;
  return `${text.slice(0, BODY_MAX_CHARS)}\n… (${text.length - BODY_MAX_CHARS} characters cut)`;
}
