// Issue 39 on the queue: a worker compacts a session, checkpoints it to Redis and dies (SIGKILL);
// the next worker resumes the compacted session from the snapshot: the same summary (no second
// summary call for that compaction), the handle still expands, and the client that submitted
// the run through the face gets the report.
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { finalReport, type RecordedRequest, type ScriptedAnswer, toolCall, toolCalls } from '@agent/testkit';
import { describe, expect, it, onTestFinished } from 'vitest';
import { type ClientOutcome, runClient } from './queue-fleet.js';
import { until, useQueueFleet } from './queue-harness.js';

const { fleet, jobsLeft } = useQueueFleet();

const MARKER = '[Context compacted]';

/** ~2 KB of distinct words per page, so a few turns fill the small window for real. */
const pageText = (id: string) =>
  `PAGE ${id} ORIGINAL TEXT: ${Array.from({ length: 60 }, (_, i) => `${id}-fact-${i} measured ${(i * 37) % 101} units;`).join(' ')}`;

const systemOf = (request: RecordedRequest) =>
  request.messages[0]?.role === 'system' ? request.messages[0].content : '';
const summaryIn = (request: RecordedRequest) =>
  request.messages.find((m) => m.role === 'user' && m.content.includes(MARKER))?.content;
/** A summary call: no tools, and the FINAL tag named neither in its system prompt (an extraction's) nor last (a turn's notice). */
const isSummary = (request: RecordedRequest) =>
  request.tools.length === 0 &&
  !systemOf(request).includes('-FINAL') &&
  !(request.messages.at(-1)?.content ?? '').includes('-FINAL');
const isExtraction = (request: RecordedRequest) =>
  /extract information from a document chunk|synthesize multiple chunk extractions/.test(systemOf(request));

/** The pages API the agent reads through `restTools` (`rest__page`); closed when the test ends. */
async function pagesApi(): Promise<string> {
  const api = createServer((req, res) => {
    const id = new URL(req.url ?? '/', 'http://localhost').searchParams.get('id') ?? '?';
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(pageText(id));
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => api.close(() => resolve())));
  return `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
}

/**
 * The model: before the kill, each turn reads two pages until the first request that carries a
 * summary, which hangs (the compaction was checkpointed before it). After the kill, the first turn
 * expands the compaction's handle, the next ones read on until the session compacts again, then
 * it reports.
 */
function compactingModel() {
  const state = {
    resumed: false,
    summaries: [] as RecordedRequest[],
    extractions: [] as RecordedRequest[],
    hung: [] as RecordedRequest[],
    resumedTurns: [] as RecordedRequest[],
    /** Summary calls made when the resumed session's first request arrived. */
    summariesAtResume: -1,
    release: (() => undefined) as () => void,
  };
  let turns = 0;
  const held = new Promise<ScriptedAnswer>((resolve) => {
    state.release = () => resolve({ text: 'too late' });
  });
  const readTwoPages = (): ScriptedAnswer => {
    turns += 1;
    return toolCalls(['rest__page', { page: `${turns}a` }], ['rest__page', { page: `${turns}b` }]);
  };
  const sessionTurn = (request: RecordedRequest): ScriptedAnswer | Promise<ScriptedAnswer> => {
    const summary = summaryIn(request);
    if (!state.resumed) {
      if (summary !== undefined) {
        state.hung.push(request);
        return held;
      }
      return readTwoPages();
    }
    state.resumedTurns.push(request);
    if (state.resumedTurns.length === 1) {
      state.summariesAtResume = state.summaries.length;
      const handle = /call tool_output with handle "([^"]+)"/.exec(summary ?? '')?.[1] ?? 'no-handle';
      const args = { handle, extract: 'page 1a', mode: 'full-chunked' };
      return toolCall('tool_output', args, { id: 'call_expand' });
    }
    // Report once the new worker has compacted again, else read on.
    if (summary !== summaryIn(state.resumedTurns[0]!))
      return finalReport('Resumed on the second worker and reported.');
    return readTwoPages();
  };
  const handler = (request: RecordedRequest): ScriptedAnswer | Promise<ScriptedAnswer> => {
    if (isSummary(request)) {
      state.summaries.push(request);
      return { text: `Summary ${state.summaries.length}: pages 1a onwards were read.` };
    }
    if (isExtraction(request)) {
      state.extractions.push(request);
      const tag = 'ai-agent-{{NONCE}}-FINAL';
      return { text: `<${tag} format="text">Page 1a: 1a-fact-7 measured 57 units.</${tag}>` };
    }
    return sessionTurn(request);
  };
  return { handler, state };
}

describe('queue: a compacted session survives its worker', () => {
  it('SIGKILL after the compaction was checkpointed: the next worker goes on from the same summary, the handle expands, the client gets the report', async () => {
    const pages = await pagesApi();
    const model = compactingModel();
    onTestFinished(() => model.state.release());
    const { workers, spawnWorker, baseUrl, name } = await fleet(1, {
      handler: model.handler,
      prepare: (dir) => {
        writeFileSync(
          join(dir.dir, 'agent.json'),
          JSON.stringify({
            providers: { local: { type: 'openai-compatible', baseURL: `${dir.model.url}/v1` } },
            restTools: {
              page: {
                description: 'Reads one page',
                url: `${pages}/page?id=\${parameters.page}`,
                parametersSchema: {
                  type: 'object',
                  properties: { page: { type: 'string' } },
                  required: ['page'],
                },
              },
            },
          }),
        );
        writeFileSync(
          dir.files[0]!,
          '---\ndescription: The echo agent.\nmodels: [local/m]\ntools: [page]\ncontextWindow: 12000\nmaxTurns: 40\ncompaction:\n  at: 0.6\n  keep: 2\n  tokens: 512\n---\nYou are echo.\n',
        );
      },
    });
    const client = runClient(baseUrl, 'job-1', true);
    let ended: ClientOutcome | undefined;
    void client.then((outcome) => {
      ended = outcome;
    });
    // The first request carrying a summary hangs: the compaction is in the checkpoint by then.
    await until(() => model.state.hung.length === 1 || ended !== undefined);
    expect(ended, 'the run ended before a compacted request').toBe(undefined);
    expect(model.state.summaries).toHaveLength(1);
    await spawnWorker();
    model.state.resumed = true;
    workers[0]!.child.kill('SIGKILL');
    expect(await workers[0]!.exited).toBe(null);

    const outcome = await client;
    expect({ ...outcome, events: outcome.events.length }).toMatchObject({
      status: 200,
      success: true,
      report: 'Resumed on the second worker and reported.',
      moved: true,
    });
    const { hung, resumedTurns, summaries, extractions, summariesAtResume } = model.state;
    // The resumed session's first request carries the summary the dead worker wrote; no summary call again.
    const summary = summaryIn(hung[0]!);
    expect(summary).toContain('call tool_output with handle "');
    expect(summaryIn(resumedTurns[0]!)).toBe(summary);
    expect(summariesAtResume).toBe(1);
    // The new worker compacted once more, from the restored state: the rolling summary folds the
    // first one in, and the new summary message names the first compaction's handle.
    expect(summaries).toHaveLength(2);
    expect(summaries[1]!.messages.map((m) => m.content).join('\n')).toContain(
      'Summary 1: pages 1a onwards were read.',
    );
    const firstHandle = /call tool_output with handle "([^"]+)"/.exec(summary ?? '')![1]!;
    const latest = summaryIn(resumedTurns.at(-1)!);
    expect(latest).toContain('Summary 2: pages 1a onwards were read.');
    expect(latest).toContain(`Earlier compacted turns: "${firstHandle}" (turns 1–`);
    // The handle expands on the second worker: the extraction read page 1a as the tool returned it.
    const seen = extractions.flatMap((r) => r.messages.map((m) => m.content)).join('\n');
    expect(seen).toContain('PAGE 1a ORIGINAL TEXT: 1a-fact-0 measured 0 units;');
    expect(seen).toContain('1a-fact-59 measured');
    const expansion = resumedTurns[1]!.messages.find(
      (m) => m.role === 'tool' && m.toolCallId === 'call_expand',
    );
    expect(expansion?.content).toContain('Page 1a: 1a-fact-7 measured 57 units.');
    expect(await jobsLeft(name)).toMatchObject({ waiting: 0, active: 0, delayed: 0, failed: 0 });
  }, 120_000);
});
