// The live session viewer (`--viewer`) in a real headless browser: Debian's chromium driven by
// playwright-core, against a real agent-server and a scripted model server over loopback HTTP.
import { join } from 'node:path';
import { finalReport, toolCall } from '@agent/testkit';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
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

const FINDINGS = '# Findings\n\n- one thing\n- **two** things\n\nSee `report.md`.';
const HOSTILE =
  '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2"> [click](javascript:window.__pwned=3)';

let agents: ViewerAgents;
let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let release: () => void = () => {};
const held = new Promise<void>((resolve) => {
  release = resolve;
});

describe('the viewer in a browser', requires('chromium'), () => {
  beforeAll(async () => {
    agents = await viewerAgents(async (request) => {
      const prompt = promptOf(request);
      const usage = { inputTokens: 10, outputTokens: 5 };
      if (request.model === 'small' && prompt.includes('hostile')) return finalReport(HOSTILE);
      if (request.model === 'small') {
        return finalReport(`helper did: ${prompt}`, {
          answer: { usage: { inputTokens: 3, outputTokens: 1 } },
        });
      }
      if (prompt.includes('json'))
        return finalReport({ answer: 42, items: ['a', 'b'] }, { answer: { usage } });
      if (prompt.includes('slack')) {
        const blocks = [
          { type: 'header', text: { type: 'plain_text', text: 'Deploy summary' } },
          { type: 'section', text: { type: 'mrkdwn', text: '*3* services shipped' } },
        ];
        return finalReport(JSON.stringify([{ blocks }]), { format: 'slack-block-kit', answer: { usage } });
      }
      const delegated = request.messages.some((m) => m.role === 'tool');
      if (!delegated) {
        const task = prompt.includes('hostile') ? `hostile ${HOSTILE}` : 'check the logs';
        return toolCall('agent__helper', { prompt: task }, { answer: { usage } });
      }
      if (prompt.includes('hostile')) return finalReport(HOSTILE, { answer: { usage } });
      if (prompt.includes('hold')) await held;
      return finalReport(FINDINGS, { answer: { usage } });
    });
    server = await startServer(
      [...agents.files.flatMap((file) => ['--agent', file]), '--api', '0', '--viewer', '0', '--token', 'tok'],
      agents.dir,
      2,
    );
    // launch() starts chromium with a new empty profile in a temp dir of its own, removed on close.
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  });

  afterAll(async () => {
    release();
    await context?.close();
    await browser?.close();
    server?.child.kill('SIGTERM');
    await server?.exited;
    await agents?.close();
  });

  const viewer = () => server.urls.viewer!.replace(/\/$/, '');
  const api = () => server.urls.rest!;

  async function openViewer(): Promise<Page> {
    const page = await context.newPage();
    await page.goto(`${viewer()}/?token=tok`);
    return page;
  }

  it('asks for a token, then keeps it in a cookie and takes it out of the address', async () => {
    const page = await browser.newPage();
    const refused = await page.goto(`${viewer()}/`);
    expect(refused?.status()).toBe(401);
    await expect(page.textContent('h1')).resolves.toBe('Token needed');
    await page.close();
    const viewerPage = await openViewer();
    expect(new URL(viewerPage.url()).search).toBe('');
    await viewerPage.waitForSelector('header h1');
    await viewerPage.close();
  });

  it('shows a running session that grows live, with its sub-agent nested, then its totals and report', async () => {
    const page = await openViewer();
    const answer = restRun(api(), 'lead', 'please hold the answer');
    const row = page.locator('tr.session-row.running', { hasText: 'lead' });
    await row.waitFor();
    await row.locator('a').click();
    // The helper sub-agent ran under the lead's tool call, and the lead's next model call is in flight.
    const tool = page.locator('.node.tool', { hasText: 'agent__helper' });
    await tool.locator('.node.session', { hasText: 'lead.helper' }).waitFor();
    await expect(tool.locator('.payload').first().textContent()).resolves.toContain('check the logs');
    await page.locator('.node.llm[data-status="running"]').waitFor();
    await expect(page.locator('section.session').getAttribute('data-status')).resolves.toBe('running');
    await page.screenshot({ path: join(ARTIFACTS, 'running.png'), fullPage: true });

    release();
    const result = await answer;
    expect(result.success).toBe(true);
    await page.locator('section.session[data-status="ok"]').waitFor();
    // Totals over the whole tree: the lead's two model calls and the helper's one.
    await expect(page.textContent('[data-total="LLM calls"]')).resolves.toBe('3');
    await expect(page.textContent('[data-total="tool calls"]')).resolves.toBe('1');
    await expect(page.textContent('[data-total="input tokens"]')).resolves.toBe('23');
    await expect(page.textContent('[data-total="output tokens"]')).resolves.toBe('11');
    const llm = page.locator('.node.llm', { hasText: 'local:big' }).first();
    await expect(llm.textContent()).resolves.toContain('10 in');
    // The report's Markdown is rendered: a heading, a list with bold text, inline code.
    await expect(page.textContent('.report h2')).resolves.toBe('Findings');
    await expect(page.textContent('.report li strong')).resolves.toBe('two');
    await expect(page.textContent('.report p code')).resolves.toBe('report.md');
    // The waterfall has a bar per operation of the tree.
    expect(await page.locator('.wf-row').count()).toBe(await page.locator('.node').count());
    await page.screenshot({ path: join(ARTIFACTS, 'finished.png'), fullPage: true });
    await page.close();
  });

  it('renders JSON pretty and a Slack Block Kit report as blocks', async () => {
    const page = await openViewer();
    await restRun(api(), 'lead', 'json please', { format: 'json', schema: { type: 'object' } });
    await restRun(api(), 'lead', 'slack please', { format: 'slack-block-kit' });
    const list = (await (await page.request.get(`${viewer()}/api/sessions`)).json()) as {
      sessions: { id: string; reportStatus?: string }[];
    };
    const [slack, json] = list.sessions;
    await page.goto(`${viewer()}/#${json!.id}`);
    const pre = page.locator('.report pre.json');
    await pre.waitFor();
    expect(JSON.parse((await pre.textContent()) ?? '')).toEqual({ answer: 42, items: ['a', 'b'] });
    await expect(pre.textContent()).resolves.toContain('\n  "answer": 42');
    await page.goto(`${viewer()}/#${slack!.id}`);
    await expect(page.textContent('.report .slack-header')).resolves.toBe('Deploy summary');
    await expect(page.textContent('.report .slack-section strong')).resolves.toBe('3');
    await page.close();
  });

  it('shows a hostile report and tool output as text: no script runs, no image loads, no javascript: link', async () => {
    const page = await openViewer();
    const response = await page.request.get(`${viewer()}/`);
    expect(response.headers()['content-security-policy']).toContain("script-src 'self'");
    const { sessionId } = await restRun(api(), 'lead', 'hostile report');
    const list = (await (await page.request.get(`${viewer()}/api/sessions`)).json()) as {
      sessions: { id: string; sessionId?: string }[];
    };
    const hostile = list.sessions.find((session) => session.sessionId === sessionId);
    await page.goto(`${viewer()}/#${hostile!.id}`);
    const report = page.locator('.report');
    await report.waitFor();
    await expect(report.textContent()).resolves.toContain('<script>window.__pwned = 1</script>');
    await expect(report.textContent()).resolves.toContain('<img src=x onerror=');
    expect(await report.locator('img, script').count()).toBe(0);
    expect(await report.locator('a').count()).toBe(0);
    // The helper's hostile report is the tool call's result, and its prompt the call's arguments.
    const tool = page.locator('.node.tool', { hasText: 'agent__helper' });
    await tool.locator('details.payload summary').first().click();
    await expect(tool.locator('.payload').first().textContent()).resolves.toContain('onerror=');
    await expect(tool.locator('.payload').nth(1).textContent()).resolves.toContain(
      '<script>window.__pwned = 1</script>',
    );
    expect(await page.locator('main img, main script, main a[href^="javascript"]').count()).toBe(0);
    await expect(page.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned)).resolves.toBeUndefined();
    await page.close();
  });

  it('filters the list by agent and by status', async () => {
    await restRun(api(), 'helper', 'direct');
    const page = await openViewer();
    await page.locator('tr.session-row').first().waitFor();
    const all = await page.locator('tr.session-row').count();
    await page.selectOption('select[name="agent"]', 'helper');
    await expect(page.locator('tr.session-row').count()).resolves.toBe(1);
    await expect(page.textContent('tr.session-row')).resolves.toContain('helper');
    await page.selectOption('select[name="agent"]', '');
    await expect(page.locator('tr.session-row').count()).resolves.toBe(all);
    await page.selectOption('select[name="status"]', 'running');
    await expect(page.locator('tr.session-row').count()).resolves.toBe(0);
    await page.selectOption('select[name="status"]', 'ok');
    await expect(page.locator('tr.session-row').count()).resolves.toBe(all);
    await page.screenshot({ path: join(ARTIFACTS, 'list.png') });
    await page.close();
  });
});
