import { createInProcessFsProvider } from '@agent/mcp/fs-server';
import type { AgentResult, ChildSessionConfig, ToolProvider } from '@agent/protocol';
import { describe, expect, test } from 'vitest';
import { ToolOutputSession } from '../src/hook.js';
import type { ToolOutputOptions } from '../src/index.js';
import { resolveOptions } from '../src/options.js';
import { readGrepPrompt } from '../src/prompts.js';
import { logText, NONCE, recordingContext, scriptedTarget, tempDir } from './helpers.js';

function result(content: string | undefined, overrides: Partial<AgentResult> = {}): AgentResult {
  return {
    success: true,
    exitCode: 'EXIT-FINAL-ANSWER',
    finalReport: { status: 'success', format: 'text', content: content ?? '', ts: 0 },
    conversation: [],
    logs: [],
    accounting: [],
    sessionId: 'child',
    ...overrides,
  } as AgentResult;
}

async function stored(text: string, options: ToolOutputOptions) {
  const { target } = scriptedTarget([]);
  const context = recordingContext({ targets: [target] });
  const session = new ToolOutputSession(
    context,
    resolveOptions({ storeDir: tempDir(), agentPath: 'main', ...options }),
  );
  const decision = await session.size(
    {
      toolName: 'logs__tail',
      callId: 'c1',
      argumentsJson: '{"service":"api"}',
      text,
      bytes: Buffer.byteLength(text),
      overSizeCap: true,
      estimatedTokens: Math.ceil(text.length / 4),
      remainingTokens: 1_000_000,
    },
    new AbortController().signal,
  );
  if (decision.action !== 'replace') throw new Error('not stored');
  const handle = String(decision.details.handle);
  const extract = async (what: string, mode?: string) => {
    const out = await session
      .tools()!
      .provider.execute(
        { name: 'tool_output', arguments: { handle, extract: what, ...(mode ? { mode } : {}) }, callId: 'x' },
        { signal: new AbortController().signal },
      );
    if (!out.ok) throw new Error(out.error.message);
    return out.text;
  };
  return { session, context, handle, extract, target };
}

describe('read-grep', () => {
  test('a 50,000-line log goes to a child whose only tools are Read and Grep of the session directory', async () => {
    const seen: { config?: ChildSessionConfig; tools?: string[]; grep?: string } = {};
    let root = '';
    const { session, context, handle, extract, target } = await stored(logText(50_000), {
      createReadGrepTools: async (dir) => {
        root = dir;
        // All four filesystem tools: the module must still offer only Read and Grep.
        return createInProcessFsProvider({ root: dir, naming: 'bare' });
      },
      runChildSession: async (config) => {
        seen.config = config;
        const provider = config.tools[0] as ToolProvider;
        seen.tools = (await provider.listTools()).map((t) => t.name);
        const listDir = await provider.execute(
          { name: 'ListDir', arguments: {}, callId: 'l' },
          { signal: config.signal },
        );
        expect(listDir.ok).toBe(false);
        const grep = await provider.execute(
          { name: 'Grep', arguments: { pattern: 'ERROR', path: handle, maxMatches: 3 }, callId: 'g' },
          { signal: config.signal },
        );
        seen.grep = grep.ok ? grep.text : grep.error.message;
        config.onEvent(
          {
            type: 'accounting',
            entry: {
              type: 'tool',
              timestamp: 1,
              status: 'ok',
              latency: 1,
              mcpServer: 'fs',
              command: 'Grep',
              charactersIn: 1,
              charactersOut: 1,
            },
          },
          { isMaster: false, isFinal: false, sessionId: 'child', agentPath: 'main.tool_output' },
        );
        config.onEvent(
          {
            type: 'log',
            entry: {
              timestamp: 1,
              severity: 'VRB',
              direction: 'response',
              type: 'llm',
              remoteIdentifier: 'agent:EXIT-FINAL-ANSWER',
              message: 'done',
            },
          },
          { isMaster: false, isFinal: false, sessionId: 'child', agentPath: 'main.tool_output' },
        );
        return result('Errors: worker-1000, worker-2000, worker-3000 failed (disk quota exceeded).');
      },
    });
    const answer = await extract('which workers failed and why');
    expect(answer).toBe(
      `ABSTRACT FROM TOOL OUTPUT logs__tail WITH HANDLE ${handle}, STRATEGY:read-grep:\n\nErrors: worker-1000, worker-2000, worker-3000 failed (disk quota exceeded).`,
    );
    expect(seen.tools).toEqual(['Read', 'Grep']);
    expect(seen.grep).toContain(
      `${handle}:1000:2026-01-14T10:00:00Z ERROR worker-1000 failed: disk quota exceeded`,
    );
    expect(root).toBe(session.store.directory);
    const config = seen.config!;
    expect(config).toMatchObject({
      models: [target],
      output: { format: 'text' },
      maxTurns: 6,
      internal: { nonce: NONCE },
      name: 'tool_output',
      parentAgentPath: 'main',
      isMaster: false,
    });
    expect(config.instructions).toBe(
      readGrepPrompt({
        toolName: 'logs__tail',
        argumentsJson: '{"service":"api"}',
        extract: 'which workers failed and why',
        nonce: NONCE,
        handle,
        rootDirectory: '.',
      }),
    );
    expect(config.instructions).not.toContain(root);
    expect(config.prompt).toContain(handle);
    expect(context.accounting).toEqual([expect.objectContaining({ command: 'Grep' })]);
    expect(context.logs.some((l) => l.remoteIdentifier.startsWith('agent:EXIT-'))).toBe(false);
    expect(context.logs.some((l) => l.message.includes('strategy read-grep (needs'))).toBe(true);
    await session.dispose();
  });

  test('a synthetic report from the child is a failure: truncate with a WARNING', async () => {
    const { session, context, extract } = await stored(logText(50_000), {
      createReadGrepTools: (dir) =>
        createInProcessFsProvider({ root: dir, tools: ['Read', 'Grep'], naming: 'bare' }),
      runChildSession: async () =>
        result(undefined, {
          success: false,
          exitCode: 'EXIT-MAX-TURNS-NO-RESPONSE',
          error: 'the turn limit was reached without a final report',
          finalReport: { status: 'failure', format: 'text', content: 'synthetic', ts: 0, synthetic: true },
        }),
    });
    const answer = await extract('errors');
    expect(answer).toMatch(
      /STRATEGY:truncate:\n\nWARNING: TRUNCATED OUTPUT\. The read-grep extraction could not run: the read-grep sub-agent gave no usable report \(EXIT-MAX-TURNS-NO-RESPONSE/,
    );
    expect(context.logs.some((l) => l.severity === 'WRN' && l.details?.fallback === 'truncate')).toBe(true);
    await session.dispose();
  });

  test('a Read/Grep result the child adopted as its report is no extraction: truncate with a WARNING', async () => {
    const { session, extract } = await stored(logText(50_000), {
      createReadGrepTools: (dir) =>
        createInProcessFsProvider({ root: dir, tools: ['Read', 'Grep'], naming: 'bare' }),
      runChildSession: async () =>
        result(undefined, {
          finalReport: {
            status: 'success',
            format: 'text',
            content: '1:raw grep line',
            ts: 0,
            origin: 'adopted-tool-message',
          },
        }),
    });
    const answer = await extract('errors');
    expect(answer).toMatch(
      /STRATEGY:truncate:\n\nWARNING: TRUNCATED OUTPUT\. The read-grep extraction could not run: the read-grep sub-agent gave no usable report \(EXIT-FINAL-ANSWER/,
    );
    await session.dispose();
  });

  test("without a Read/Grep factory the child gets the module's own Read and Grep, over handles only", async () => {
    const seen: string[] = [];
    const { session, extract } = await stored(logText(50_000), {
      runChildSession: async (config) => {
        const [tools] = config.tools;
        const names = (await tools!.listTools()).map((t) => t.name);
        const handle = /- Handle\/filename: (\S+)/.exec(config.instructions)![1]!;
        const run = async (name: string, args: Record<string, unknown>) => {
          const answer = await tools!.execute(
            { name, arguments: args, callId: name },
            { signal: config.signal },
          );
          return answer.ok ? answer.text : `error ${answer.error.kind}: ${answer.error.message}`;
        };
        seen.push(names.join(','));
        seen.push(await run('Grep', { pattern: 'ERROR worker-(1|2)000 ', path: handle }));
        seen.push(await run('Read', { path: handle, offset: 49_999, limit: 5 }));
        seen.push(await run('Read', { path: '../../etc/passwd' }));
        return result('worker-1000 and worker-2000 failed');
      },
    });
    expect(await extract('errors', 'read-grep')).toMatch(
      /STRATEGY:read-grep:\n\nworker-1000 and worker-2000 failed$/,
    );
    const [names, grepped, read, outside] = seen;
    expect(names).toBe('Read,Grep');
    expect(grepped).toMatch(
      /^[0-9a-f-]{36}:1000:.*ERROR worker-1000 failed.*\n[0-9a-f-]{36}:2000:.*ERROR worker-2000 failed/,
    );
    expect(read).toMatch(/lines 49999-50000 of 50000\]\n 49999\t.*worker-49999.*\n 50000\t/);
    expect(outside).toMatch(
      /^error invalid_arguments: "..\/..\/etc\/passwd" is not a file here; the files are: [0-9a-f-]{36}$/,
    );
    await session.dispose();
  });

  test('a failure naming the session directory reaches the model without its absolute path', async () => {
    let root = '';
    const { session, extract } = await stored(logText(50_000), {
      runChildSession: async () => result('never'),
      createReadGrepTools: (dir) => {
        root = dir;
        throw new Error(`cannot serve ${dir}`);
      },
    });
    const answer = await extract('errors', 'read-grep');
    expect(answer).toContain('starting the Read/Grep tools failed: cannot serve <session directory>');
    expect(answer).not.toContain(root);
    await session.dispose();
  });

  test('"not found" from the child is a successful answer saying what was searched', async () => {
    const { session, extract } = await stored(logText(50_000), {
      createReadGrepTools: (dir) =>
        createInProcessFsProvider({ root: dir, tools: ['Read', 'Grep'], naming: 'bare' }),
      runChildSession: async () => result('NO RELEVANT DATA FOUND\nThe file holds worker logs.'),
    });
    const answer = await extract('payment failures');
    expect(answer).toMatch(
      /STRATEGY:read-grep:\n\nNO RELEVANT DATA FOUND\nThe file holds worker logs\.\nSearched the output \(\d+ bytes, 50000 lines\) with Read and Grep for: "payment failures"\. No match was found\.$/,
    );
    await session.dispose();
  });
});
