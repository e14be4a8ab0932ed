import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SessionStore } from '@agent/protocol';
import { type AgentRunner, createAgentRunner } from '@agent/runtime';
import { type ModelServer, type ScriptStep, startModelServer, toolCall } from '@agent/testkit';
import { type AgentCatalog, createCatalog } from '../../src/index.js';
import { served } from './agents.js';

const DEPLOY_MCP = fileURLToPath(new URL('./deploy-mcp.mjs', import.meta.url));

/** The model's answer that asks to deploy to `env` (call id `id`); `ops__deploy` needs approval. */
export function deployCall(id: string, env = 'prod'): ScriptStep {
  return toolCall('ops__deploy', { env }, { id });
}

export interface ApprovalAgents {
  model: ModelServer;
  /** Serves `deployer` and `lead` (whose sub-agent is the deployer); `other` shares the store, not served. */
  catalog: AgentCatalog;
  deployer: AgentRunner;
  other: AgentRunner;
  /** The calls the deploy server ran, with the `_meta` each came with. */
  deployments(): { arguments: { env: string }; meta: Record<string, unknown> }[];
  close(): Promise<void>;
}

/**
 * Real runners (`@agent/runtime`) over the testkit model server and a real stdio MCP server
 * whose `deploy` tool needs approval (`approval` on the server in agent.json); sessions go to
 * the default SQLite store under a temp state dir, or `extra.sessionStore` (the caller closes it);
 * `extra.config`: more agent.json keys (`sessions`).
 */
export async function startApprovalAgents(
  extra: { sessionStore?: SessionStore; config?: Record<string, unknown> } = {},
): Promise<ApprovalAgents> {
  const model = await startModelServer({ steps: [] });
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'headends-approvals-')));
  const record = join(dir, 'deployments.jsonl');
  writeFileSync(
    join(dir, 'agent.json'),
    JSON.stringify({
      providers: { local: { type: 'openai-compatible', baseURL: `${model.url}/v1` } },
      mcpServers: {
        ops: { command: process.execPath, args: [DEPLOY_MCP, record], approval: { tools: ['deploy'] } },
      },
      ...extra.config,
    }),
  );
  const agent = (description: string) =>
    `---\ndescription: ${description}\nmodels: [local/m]\ntools: [ops]\n---\nYou deploy releases.\n`;
  writeFileSync(join(dir, 'deployer.ai'), agent('Deploys releases.'));
  writeFileSync(join(dir, 'other.ai'), agent('Another agent on the same store.'));
  writeFileSync(
    join(dir, 'lead.ai'),
    '---\ndescription: Leads; the deployer is its sub-agent.\nmodels: [local/m]\nagents: [deployer.ai]\n---\nYou lead.\n',
  );
  const options = {
    cwd: dir,
    env: { XDG_STATE_HOME: join(dir, 'state') },
    userConfigDir: join(dir, '.none'),
    systemConfigDir: join(dir, '.none'),
    ...(extra.sessionStore === undefined ? {} : { sessionStore: extra.sessionStore }),
  };
  const deployer = await createAgentRunner(join(dir, 'deployer.ai'), options);
  const other = await createAgentRunner(join(dir, 'other.ai'), options);
  const lead = await createAgentRunner(join(dir, 'lead.ai'), options);
  return {
    model,
    catalog: createCatalog([served(deployer), served(lead)]),
    deployer,
    other,
    deployments: () =>
      existsSync(record)
        ? readFileSync(record, 'utf8')
            .trim()
            .split('\n')
            .map((line) => JSON.parse(line))
        : [],
    close: async () => {
      await Promise.all([deployer.close(), other.close(), lead.close()]);
      await model.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The tool results the model got in its latest request. */
export function lastToolMessages(model: ModelServer): string[] {
  const last = model.requests.at(-1);
  return (last?.messages ?? []).filter((m) => m.role === 'tool').map((m) => String(m.content));
}
