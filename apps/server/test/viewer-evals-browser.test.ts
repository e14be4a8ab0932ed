// The eval page in a real headless browser: the runs list, one run's summary, cases, scores and
// reasons, the regression against its baseline, and a case's link opening its session tree.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requires } from '../../../tooling/vitest/skip.js';
import { CASE_SESSIONS, writeEvalRuns } from './eval-fixtures.js';
import { type AgentDir, agentDir, finalReport, type RunningServer, startServer } from './helpers.js';
import { ARTIFACTS, CHROMIUM, CHROMIUM_ARGS } from './viewer-helpers.js';

let agents: AgentDir;
let evals: string;
let server: RunningServer;
let browser: Browser;

describe('the eval page', requires('chromium'), () => {
  beforeAll(async () => {
    agents = await agentDir(() => ({ text: finalReport('ok') }));
    evals = mkdtempSync(join(tmpdir(), 'viewer-evals-page-'));
    writeEvalRuns(evals);
    server = await startServer(
      [
        '--agent',
        agents.files[0]!,
        '--api',
        '0',
        '--viewer',
        '0',
        '--operator-token',
        'tok',
        '--evals',
        evals,
      ],
      agents.dir,
      2,
    );
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  });

  afterAll(async () => {
    await browser?.close();
    server?.child.kill('SIGTERM');
    await server?.exited;
    await agents?.close();
    rmSync(evals, { recursive: true, force: true });
  });

  it('lists the runs, shows a run with its cases, scores and regression, and opens a case session', async () => {
    const page = await browser.newPage({ viewport: { width: 1200, height: 1000 } });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    // The browser's own favicon request gets the viewer's 404: not the page's doing.
    page.on('console', (message) => {
      if (message.type() === 'error' && !message.location().url.endsWith('/favicon.ico'))
        errors.push(`${message.text()} ${message.location().url}`);
    });
    await page.goto(`${server.urls.viewer!.replace(/\/$/, '')}/?token=tok`);
    await page.locator('a.evals-link').click();
    expect(new URL(page.url()).hash).toBe('#evals');

    // The runs, newest first; the newer one names its regression against r1.
    const rows = page.locator('tr.eval-row');
    await rows.first().waitFor();
    await expect(rows.evaluateAll((all) => all.map((row) => row.getAttribute('data-run')))).resolves.toEqual([
      'r2',
      'r1',
    ]);
    await expect(rows.first().textContent()).resolves.toContain('vs r1: 1 regressed, 0 improved');
    await expect(rows.first().getAttribute('class')).resolves.toContain('failed');
    await page.locator('tr.eval-row[data-run="r2"] a').click();
    expect(new URL(page.url()).hash).toBe('#eval:r2');

    // The summary.
    await page.locator('section.eval-run[data-run="r2"]').waitFor();
    const total = (name: string) => page.textContent(`[data-summary="${name}"]`);
    await expect(total('cases')).resolves.toBe('2');
    await expect(total('passed')).resolves.toBe('1');
    await expect(total('failed')).resolves.toBe('1');
    await expect(total('pass^1')).resolves.toBe('75%');
    await expect(total('pass^2')).resolves.toBe('50%');
    await expect(total('cost')).resolves.toBe('$0.00640');
    await expect(total('input tokens')).resolves.toBe('480');

    // The baseline diff: `sum` regressed (highlighted, its score before -> after), `capital` unchanged.
    const regressed = page.locator('tr.baseline-row[data-case="sum"]');
    await expect(regressed.getAttribute('data-change')).resolves.toBe('regressed');
    await expect(regressed.textContent()).resolves.toContain('0.95 -> 0.10');
    const highlight = await regressed
      .locator('td')
      .first()
      .evaluate(
        // In the page (the tests' types have no DOM).
        (cell) =>
          (
            globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }
          ).getComputedStyle(cell).backgroundColor,
      );
    expect(highlight).toBe('rgb(255, 241, 240)');
    await expect(
      page.locator('tr.baseline-row[data-case="capital"]').getAttribute('data-change'),
    ).resolves.toBe('unchanged');
    await expect(page.textContent('.baseline-counts')).resolves.toBe(
      '1 regressed · 0 improved · 0 added · 0 removed · 1 unchanged',
    );

    // The cases: verdicts, each scorer's score and reason, cost, turns and time.
    const sum = page.locator('tbody.eval-case[data-case="sum"]');
    // Pass or fail per repeat: the first run failed, the second passed; the case failed.
    await expect(sum.locator('[data-run-result]').allTextContents()).resolves.toEqual(['#1 fail', '#2 pass']);
    await expect(sum.locator('td[rowspan="2"] .badge').textContent()).resolves.toBe('fail');
    await expect(
      sum.locator('tr[data-repeat="1"] li.score[data-scorer="contains"]').textContent(),
    ).resolves.toBe('contains 1.00 run 2: pass');
    const contains = sum.locator('tr[data-repeat="0"] li.score[data-scorer="contains"]');
    await expect(contains.getAttribute('class')).resolves.toContain('fail');
    await expect(contains.textContent()).resolves.toBe('contains 0.00 expected "42" in the report');
    await expect(
      sum.locator('tr[data-repeat="0"] li.score[data-scorer="judge"]').textContent(),
    ).resolves.toBe('judge 0.20 judge on sum (judge $0.00040)');
    await expect(sum.textContent()).resolves.toContain('1.50 s');
    const capital = page.locator('tbody.eval-case[data-case="capital"]');
    await expect(capital.locator('[data-run-result]').allTextContents()).resolves.toEqual([
      '#1 pass',
      '#2 pass',
    ]);
    await expect(
      capital.locator('tr[data-repeat="0"] li.score[data-scorer="contains"]').textContent(),
    ).resolves.toBe('contains 1.00 found "Paris"');
    await page.screenshot({ path: join(ARTIFACTS, 'eval-run.png'), fullPage: true });

    // A case's link opens its session tree, read from the run's records/ directory.
    await sum.locator('tr[data-repeat="0"] a.session-link').click();
    expect(new URL(page.url()).hash).toBe(`#${CASE_SESSIONS.sum}`);
    await page.locator('section.session[data-status="ok"]').waitFor();
    await page.locator('.node.tool', { hasText: 'lookup_sum' }).waitFor();
    await expect(page.locator('.node.llm', { hasText: 'local:m' }).count()).resolves.toBe(1);
    await page.screenshot({ path: join(ARTIFACTS, 'eval-case-session.png'), fullPage: true });

    // Back to the run: the page reads it again.
    await page.goBack();
    await page.locator('section.eval-run[data-run="r2"]').waitFor();
    expect(errors).toEqual([]);
    await page.close();
  });
});
