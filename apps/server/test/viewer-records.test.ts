// The viewer reads the session records of `persistence.sessionsDir`: a session run elsewhere
// before the server started (a library caller of @agent/runtime, as the CLI and workers are) and
// one the server ran before it restarted both show in a freshly started server's viewer, in a
// real headless browser, with their tree, totals and report.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createAgentRunner } from '@agent/runtime';
import { finalReport, toolCall } from '@agent/testkit';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requires } from '../../../tooling/vitest/skip.js';
import { type RunningServer, startServer } from './helpers.js';
import {
  ARTIFACTS,
  CHROMIUM,
  CHROMIUM_ARGS,
  promptOf,
  restRun,
  type ViewerAgents,
  viewerAgents,
} from './viewer-helpers.js';

const FINDINGS = '# Findings\n\n- one thing\n- **two** things';
const COUNT_SCHEMA = { type: 'object', required: ['count'], properties: { count: { type: 'integer' } } };

let agents: ViewerAgents;
let browser: Browser;
const servers: RunningServer[] = [];

// An operator token: a record no client started (the library run below) is shown to operators only.
async function serve(): Promise<RunningServer> {
  const server = await startServer(
    [
      ...agents.files.flatMap((file) => ['--agent', file]),
      '--api',
      '0',
      '--viewer',
      '0',
      '--operator-token',
      'tok',
    ],
    agents.dir,
    2,
  );
  servers.push(server);
  return server;
}

async function stop(server: RunningServer): Promise<void> {
  server.child.kill('SIGTERM');
  await server.exited;
}

describe('the viewer reads persistence.sessionsDir', requires('chromium'), () => {
  beforeAll(async () => {
    agents = await viewerAgents((request) => {
      const prompt = promptOf(request);
      const usage = { inputTokens: 10, outputTokens: 5 };
      if (request.model === 'small') {
        return finalReport(`helper did: ${prompt}`, {
          answer: { usage: { inputTokens: 3, outputTokens: 1 } },
        });
      }
      if (prompt.includes('json')) return finalReport({ answer: 42 }, { answer: { usage } });
      // Parses on every attempt, never matches COUNT_SCHEMA: the last attempt is the result.
      if (prompt.includes('count')) return finalReport({ count: 'never' }, { answer: { usage } });
      if (!request.messages.some((m) => m.role === 'tool'))
        return toolCall('agent__helper', { prompt: 'check the logs' }, { answer: { usage } });
      return finalReport(FINDINGS, { answer: { usage } });
    });
    const configPath = join(agents.dir, 'agent.json');
    const config = JSON.parse(readFileSync(configPath, 'utf8')) as object;
    writeFileSync(configPath, JSON.stringify({ ...config, persistence: { sessionsDir: 'records' } }));
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  });

  afterAll(async () => {
    await browser?.close();
    for (const server of servers) if (server.child.exitCode === null) await stop(server);
    await agents?.close();
  });

  async function openViewer(server: RunningServer, hash = ''): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    await page.goto(`${server.urls.viewer!.replace(/\/$/, '')}/?token=tok`);
    if (hash !== '') await page.goto(`${server.urls.viewer!.replace(/\/$/, '')}/#${hash}`);
    return page;
  }

  it('shows a session recorded before the server started, with its tree, totals and report', async () => {
    // An earlier run, not by this server: its record is written when the runner closes.
    const runner = await createAgentRunner(agents.files[0]!);
    const result = await runner.run('look into it');
    await runner.close();
    expect(result.success).toBe(true);

    const server = await serve();
    const page = await openViewer(server);
    const row = page.locator('tr.session-row', { hasText: 'lead' });
    await row.waitFor();
    await expect(row.getAttribute('class')).resolves.toContain('ok');
    await row.locator('a').click();
    await page.locator('section.session[data-status="ok"]').waitFor();
    expect(new URL(page.url()).hash).toBe(`#${result.sessionId}`);
    // Totals of the record: the lead's two model calls and the helper's one, one tool call.
    await expect(page.textContent('[data-total="LLM calls"]')).resolves.toBe('3');
    await expect(page.textContent('[data-total="tool calls"]')).resolves.toBe('1');
    await expect(page.textContent('[data-total="input tokens"]')).resolves.toBe('23');
    await expect(page.textContent('[data-total="output tokens"]')).resolves.toBe('11');
    // The tree: the helper's session under the lead's tool call, with the call's arguments and result.
    const tool = page.locator('.node.tool', { hasText: 'agent__helper' });
    await tool.locator('.node.session', { hasText: 'helper' }).waitFor();
    await expect(tool.locator('.payload').first().textContent()).resolves.toContain('check the logs');
    await expect(tool.textContent()).resolves.toContain('helper did: check the logs');
    const llm = page.locator('.node.llm', { hasText: 'local:big' }).first();
    await expect(llm.textContent()).resolves.toContain('10 in');
    // The Markdown report, rendered.
    await expect(page.textContent('.report h2')).resolves.toBe('Findings');
    await expect(page.textContent('.report li strong')).resolves.toBe('two');
    expect(await page.locator('.wf-row').count()).toBe(await page.locator('.node').count());
    await page.screenshot({ path: join(ARTIFACTS, 'from-record.png'), fullPage: true });
    await page.close();
    await stop(server);
  });

  it('a session the server ran is still there after it restarts', async () => {
    const first = await serve();
    const ran = await restRun(first.urls.rest!, 'lead', 'json please', {
      format: 'json',
      schema: { type: 'object' },
    });
    expect(ran.success).toBe(true);
    await stop(first);

    const second = await serve();
    const page = await openViewer(second, String(ran.sessionId));
    const pre = page.locator('.report pre.json');
    await pre.waitFor();
    expect(JSON.parse((await pre.textContent()) ?? '')).toEqual({ answer: 42 });
    await expect(page.textContent('[data-total="LLM calls"]')).resolves.toBe('1');
    // The list holds both records, newest first; the API answers for each by its session id.
    const viewer = second.urls.viewer!.replace(/\/$/, '');
    const list = (await (await page.request.get(`${viewer}/api/sessions`)).json()) as {
      sessions: { id: string; agent: string; status: string }[];
    };
    expect(list.sessions).toHaveLength(2);
    expect(list.sessions[0]).toMatchObject({ id: ran.sessionId, agent: 'lead', status: 'ok' });
    const missing = await page.request.get(`${viewer}/api/sessions/no-such-session`);
    expect(missing.status()).toBe(404);
    await page.close();
  });

  it('shows a report that missed its schema as failed, with the report, the exit code and the errors', async () => {
    const first = await serve();
    const ran = await restRun(first.urls.rest!, 'lead', 'count them', {
      format: 'json',
      schema: COUNT_SCHEMA,
    });
    expect(ran).toMatchObject({ success: false, exitCode: 'EXIT-FINAL-REPORT-SCHEMA-MISMATCH' });
    await stop(first);

    // From the record, after a restart: the list and the page both name the exit code.
    const second = await serve();
    const page = await openViewer(second, String(ran.sessionId));
    await page.locator('section.session[data-status="failed"]').waitFor();
    await expect(page.textContent('[data-exit-code]')).resolves.toBe('EXIT-FINAL-REPORT-SCHEMA-MISMATCH');
    const pre = page.locator('.report pre.json');
    await pre.waitFor();
    expect(JSON.parse((await pre.textContent()) ?? '')).toEqual({ count: 'never' });
    await expect(page.locator('.report .validation-errors li').allTextContents()).resolves.toEqual([
      '/count: must be integer',
    ]);
    const viewer = second.urls.viewer!.replace(/\/$/, '');
    const list = (await (await page.request.get(`${viewer}/api/sessions`)).json()) as {
      sessions: { id: string; status: string; exitCode?: string }[];
    };
    expect(list.sessions.find((s) => s.id === ran.sessionId)).toMatchObject({
      status: 'failed',
      exitCode: 'EXIT-FINAL-REPORT-SCHEMA-MISMATCH',
    });
    await page.screenshot({ path: join(ARTIFACTS, 'schema-mismatch.png'), fullPage: true });
    await page.close();
    await stop(second);
  });
});
