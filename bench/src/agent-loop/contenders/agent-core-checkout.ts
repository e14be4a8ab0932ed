// agent-core as another built checkout of the repository runs it (`BENCH_COMPARE`), so a change
// is measured against the code before it in the same run. Checkouts from before the API
// redesign (no `defineAgent`) run the same session through `runAgent` with a `ToolProvider`.
import { pathToFileURL } from 'node:url';
import type { ToolProvider } from '@agent/protocol';
import { INSTRUCTIONS, lookup, TOOL_DESCRIPTION, TOOL_NAME, TOOL_SCHEMA } from '../script.js';
import { coreSessions } from './agent-core.js';
import { benchModelClient } from './bench-client.js';
import type { ContenderFactory, SessionOutcome, SessionRunner } from './types.js';

type Core = typeof import('@agent/core');
type Providers = typeof import('@agent/providers');

/** The pre-redesign entry point, as far as this session needs it. */
type LegacyRunAgent = (config: Record<string, unknown>) => Promise<{
  success: boolean;
  exitCode: string;
  error?: string;
  finalReport?: { content?: string };
}>;

const built = (dir: string, pkg: string) => pathToFileURL(`${dir}/packages/${pkg}/dist/index.js`).href;

function legacySessions(runAgent: LegacyRunAgent, client: unknown): SessionRunner {
  const definitions = [{ name: TOOL_NAME, description: TOOL_DESCRIPTION, inputSchema: { ...TOOL_SCHEMA } }];
  const localTools: ToolProvider = {
    id: 'local',
    listTools: async () => definitions,
    execute: async (call) => ({ ok: true, text: lookup(call.arguments.key) }),
  };
  return async (prompt, turns): Promise<SessionOutcome> => {
    let events = 0;
    const result = await runAgent({
      targets: [{ client }],
      tools: [localTools],
      systemPrompt: INSTRUCTIONS,
      userPrompt: prompt,
      maxTurns: turns + 2,
      expectedOutput: { format: 'text' },
      callbacks: { onEvent: () => void events++ },
    });
    if (!result.success) throw new Error(`agent-core checkout: ${result.exitCode}: ${result.error ?? ''}`);
    return { finalText: result.finalReport?.content ?? '', events };
  };
}

export function checkoutCore(dir: string): ContenderFactory {
  return async (baseURL) => {
    const core = (await import(built(dir, 'core'))) as Core & { runAgent?: LegacyRunAgent };
    const providers = (await import(built(dir, 'providers'))) as Providers;
    if (typeof core.defineAgent === 'function') return coreSessions(baseURL, core.run, { core, providers });
    const client = benchModelClient(baseURL, providers);
    if (core.runAgent === undefined)
      throw new Error(`agent-core checkout ${dir}: neither defineAgent nor runAgent`);
    return legacySessions(core.runAgent, client);
  };
}
