import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentResult, FinalReportStatus, OutputFormat } from '@agent/protocol';
import { type AgentRunner, createAgentRunner } from '@agent/runtime';
import {
  finalReport as finalReportStep,
  type ModelServer,
  type RecordedRequest,
  type ScriptedAnswer,
  startModelServer,
} from '@agent/testkit';
import {
  type AgentCatalog,
  createCatalog,
  type Headend,
  type HeadendOptions,
  type ServedAgent,
  type ServedHeadend,
  serve,
} from '../../src/index.js';

/** The text of a final report (the testkit's builder), which the testkit fills with the session's nonce. */
export function finalReport(
  payload: string,
  format: OutputFormat = 'markdown',
  status: FinalReportStatus = 'success',
): string {
  return String(finalReportStep(payload, { format, status }).text);
}

/** The prompt the agent got: the last user message that is not the XML-NEXT notice. */
export function lastUserText(messages: readonly { role: string; content: string }[]): string {
  const users = messages.filter((m) => m.role === 'user' && !m.content.includes('-FINAL'));
  return users.at(-1)?.content ?? '';
}

export function served(runner: AgentRunner): ServedAgent {
  const { summary } = runner;
  return {
    info: {
      name: summary.toolName,
      description: summary.description,
      outputFormat: summary.outputFormat,
      inputSchema: summary.inputSchema,
      outputSchema: summary.outputSchema,
      orchestration: summary.orchestration,
      ...(summary.usage === undefined ? {} : { usage: summary.usage }),
    },
    run: (input, options) => runner.run(input, options),
    sessions: {
      find: (sessionId) => runner.storedSession(sessionId),
      resume: (sessionId, options) => runner.resume(sessionId, options),
    },
  };
}

export interface TestAgents {
  catalog: AgentCatalog;
  model: ModelServer;
  close(): Promise<void>;
}

/**
 * Real agents (`@agent/runtime`) whose model is the testkit server answering with `answer`.
 * `names` become `<name>.ai` files with the toolName `name`; `frontmatter` adds YAML lines to
 * a name's file (e.g. its `output`).
 */
export async function startAgents(
  answer: (request: RecordedRequest) => ScriptedAnswer | Promise<ScriptedAnswer>,
  names: string[] = ['echo'],
  frontmatter: Record<string, string> = {},
): Promise<TestAgents> {
  const model = await startModelServer({ handler: answer });
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'headends-test-')));
  writeFileSync(
    join(dir, 'agent.json'),
    JSON.stringify({ providers: { local: { type: 'openai-compatible', baseURL: `${model.url}/v1` } } }),
  );
  const runners: AgentRunner[] = [];
  for (const name of names) {
    const file = join(dir, `${name}.ai`);
    writeFileSync(
      file,
      `---\ndescription: The ${name} test agent.\nmodels: [local/test-model]\n${frontmatter[name] ?? ''}---\nYou are ${name}.\n`,
    );
    runners.push(
      await createAgentRunner(file, {
        cwd: dir,
        // Sessions and conversations go to the temp dir, never to the user's state dir.
        env: { XDG_STATE_HOME: join(dir, 'state') },
        userConfigDir: join(dir, '.none'),
        systemConfigDir: join(dir, '.none'),
      }),
    );
  }
  return {
    catalog: createCatalog(runners.map(served)),
    model,
    close: async () => {
      await Promise.all(runners.map((runner) => runner.close()));
      await model.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** An answer that reports `Echo: <prompt>` streamed in a few deltas. */
export function echoAnswer(request: {
  messages: readonly { role: string; content: string }[];
}): ScriptedAnswer {
  const prompt = lastUserText(request.messages);
  return {
    reasoning: { text: 'Thinking about it.' },
    text: [finalReport(`Echo: ${prompt}`)],
    usage: { inputTokens: 10, outputTokens: 5 },
  };
}

/** One run a headend started: the signal it passed and the result it got. */
export interface RecordedRun {
  signal?: AbortSignal;
  result: Promise<AgentResult>;
}

/** The catalog's `echo` agent, with every run it starts pushed to `runs` (to watch aborts). */
export function recording(catalog: AgentCatalog, runs: RecordedRun[]): AgentCatalog {
  const agent = catalog.get('echo')!;
  return createCatalog([
    {
      info: agent.info,
      run: (input, options) => {
        const result = agent.run(input, options);
        runs.push({ signal: options.signal, result });
        return result;
      },
    },
  ]);
}

/** Serves the headend `make` builds over `catalog` (bearer `token`) for `use`, then closes it. */
export async function withHeadend<T>(
  make: (options: HeadendOptions) => Headend,
  catalog: AgentCatalog,
  token: string,
  use: (server: ServedHeadend) => Promise<T>,
): Promise<T> {
  const server = await serve(make({ catalog, tokens: [token] }));
  try {
    return await use(server);
  } finally {
    await server.close();
  }
}
