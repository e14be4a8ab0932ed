import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentResult } from '@agent/protocol';
import { createAgentRunner } from '@agent/runtime';
import {
  type RecordedRequest,
  type ScriptedAnswer,
  startModelServer,
  streamedFinalReport,
} from '@agent/testkit';
import { describe, expect, it } from 'vitest';
import { createCatalog, createOpenAiHeadend, serve } from '../src/index.js';
import { finalReport } from './helpers/agents.js';

const isChild = (request: RecordedRequest) =>
  request.messages.some((m) => m.role === 'system' && m.content.includes('You are child'));

function answer(request: RecordedRequest): ScriptedAnswer {
  if (isChild(request)) return { text: finalReport('x'.repeat(4000)) };
  if (!request.messages.some((m) => m.role === 'tool')) {
    return { toolCalls: [{ name: 'agent__child', arguments: { prompt: 'a long answer please' } }] };
  }
  return streamedFinalReport(Array<string>(100).fill('tick '), {
    unclosed: true,
    answer: { tokenDelayMs: 50 },
  });
}

describe('a disconnect mid-stream', () => {
  it('aborts the session and its tool-output directory is gone', async () => {
    const model = await startModelServer({ handler: answer });
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'headends-tool-output-')));
    const store = join(dir, 'store');
    mkdirSync(store);
    writeFileSync(
      join(dir, 'agent.json'),
      JSON.stringify({ providers: { local: { type: 'openai-compatible', baseURL: `${model.url}/v1` } } }),
    );
    const settings = `toolResponseMaxBytes: 200\ntoolOutput:\n  storeDir: ${store}`;
    writeFileSync(
      join(dir, 'parent.ai'),
      `---\ndescription: Parent.\nmodels: [local/m]\nagents: [./child.ai]\n${settings}\n---\nYou are parent.\n`,
    );
    writeFileSync(
      join(dir, 'child.ai'),
      '---\ndescription: Child.\nmodels: [local/m]\n---\nYou are child.\n',
    );
    const runner = await createAgentRunner(join(dir, 'parent.ai'), {
      cwd: dir,
      env: {},
      userConfigDir: join(dir, '.none'),
      systemConfigDir: join(dir, '.none'),
    });
    let result: Promise<AgentResult> | undefined;
    let signal: AbortSignal | undefined;
    const catalog = createCatalog([
      {
        info: { name: 'parent', outputFormat: 'markdown' },
        run: (input, options) => {
          signal = options.signal;
          result = runner.run(input, options);
          return result;
        },
      },
    ]);
    const server = await serve(createOpenAiHeadend({ catalog, allowNoAuth: true }));
    try {
      const controller = new AbortController();
      const response = await fetch(`${server.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'parent', stream: true, messages: [{ role: 'user', content: 'go' }] }),
        signal: controller.signal,
      });
      const reader = response.body!.getReader();
      let seen = '';
      while (!seen.includes('tick')) {
        const { value } = await reader.read();
        seen += new TextDecoder().decode(value);
      }
      // The child's long answer was stored: the session's directory exists while it streams.
      expect(readdirSync(store).length).toBe(1);
      controller.abort();
      const outcome = await result!;
      expect(signal?.aborted).toBe(true);
      expect(outcome.success).toBe(false);
      expect(readdirSync(store)).toEqual([]);
    } finally {
      await server.close();
      await runner.close();
      await model.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
