import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentResult } from '@agent/protocol';
import { type AgentRunner, createAgentRunner } from '@agent/runtime';
import {
  type ModelServer,
  type RecordedRequest,
  type ScriptedAnswer,
  startModelServer,
} from '@agent/testkit';
import { type AgentCatalog, createCatalog } from '../../src/index.js';
import { served } from './agents.js';

const CALC_MCP = join(dirname(fileURLToPath(import.meta.url)), 'calc-mcp.mjs');

/** One run the catalog started: its signal and its result. */
export interface TeamRun {
  signal?: AbortSignal;
  result: Promise<AgentResult>;
}

export interface Team {
  catalog: AgentCatalog;
  model: ModelServer;
  runs: TeamRun[];
  close(): Promise<void>;
}

/** True for requests of the `helper` sub-agent. */
export const isHelper = (request: RecordedRequest) =>
  request.messages.some((m) => m.role === 'system' && m.content.includes('You are helper'));

/**
 * Real agents: `lead` with the `calc` MCP server (a real stdio child) and the `helper`
 * sub-agent; the model is the testkit server answering with `answer`. Runs are recorded.
 */
export async function startTeam(
  answer: (request: RecordedRequest) => ScriptedAnswer | Promise<ScriptedAnswer>,
): Promise<Team> {
  const model = await startModelServer({ handler: answer });
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'headends-team-')));
  writeFileSync(
    join(dir, 'agent.json'),
    JSON.stringify({
      providers: { local: { type: 'openai-compatible', baseURL: `${model.url}/v1` } },
      mcpServers: { calc: { command: process.execPath, args: [CALC_MCP] } },
    }),
  );
  writeFileSync(
    join(dir, 'lead.ai'),
    '---\ndescription: The lead.\nmodels: [local/m]\ntools: [calc]\nagents: [./helper.ai]\n---\nYou are lead.\n',
  );
  writeFileSync(
    join(dir, 'helper.ai'),
    '---\ndescription: The helper.\nmodels: [local/m]\n---\nYou are helper.\n',
  );
  const runner: AgentRunner = await createAgentRunner(join(dir, 'lead.ai'), {
    cwd: dir,
    env: {},
    userConfigDir: join(dir, '.none'),
    systemConfigDir: join(dir, '.none'),
  });
  const runs: TeamRun[] = [];
  const lead = served(runner);
  const catalog = createCatalog([
    {
      info: lead.info,
      run: (input, options) => {
        const result = lead.run(input, options);
        runs.push({ signal: options.signal, result });
        return result;
      },
    },
  ]);
  return {
    catalog,
    model,
    runs,
    close: async () => {
      await runner.close();
      await model.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
