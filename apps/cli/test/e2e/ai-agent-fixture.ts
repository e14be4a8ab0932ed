// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ai-agent's files write literal ${VAR} text.
import {
  AI_AGENT_BIN,
  type CliRunOptions,
  isolatedEnv,
  runCli,
  scriptedServer,
  workspace,
} from './helpers.js';

// Workspaces laid out as ai-agent users have them, for the `ai-agent` bin's e2e tests.

/** A directory laid out as an ai-agent user has it: .ai-agent.json, .ai-agent.env, agent files. */
export async function legacyDirectory(
  steps: Parameters<typeof scriptedServer>[0],
  extra: Record<string, unknown> = { telemetry: { enabled: true } },
) {
  const server = await scriptedServer(steps);
  const ws = workspace(undefined);
  ws.write(
    '.ai-agent.json',
    JSON.stringify({
      providers: {
        nova: { type: 'openai-compatible', baseUrl: '${NOVA_URL}', apiKey: '${NOVA_KEY}' },
        claude: { type: 'anthropic', baseUrl: '${CLAUDE_URL}', apiKey: '${NOVA_KEY}' },
      },
      queues: { default: { concurrent: 2 } },
      ...extra,
    }),
  );
  ws.write('.ai-agent.env', `NOVA_URL=${server.url}/v1\nCLAUDE_URL=${server.url}\nNOVA_KEY=sk-cli-legacy\n`);
  ws.write(
    'main.ai',
    [
      '#!/usr/bin/env ai-agent',
      '---',
      'models: nova/gpt-oss',
      'maxToolTurns: 3',
      'llmTimeout: 1m',
      '---',
      'Work in ${CD} within {{MAX_TURNS}} turns.',
      '',
    ].join('\n'),
  );
  /** Runs the `ai-agent` bin in the directory. */
  const aiAgent = (args: string[], options: CliRunOptions = {}) =>
    runCli(args, { bin: AI_AGENT_BIN, cwd: ws.dir, ...options, env: { ...isolatedEnv(ws), ...options.env } });
  return { server, ws, aiAgent };
}
