import type { AgentSessionConfig } from '@agent/core';
import { scriptedModel } from '@agent/testkit';
import type { RunAgentFileOptions } from '../../src/api.js';
import { runExpectedOutput } from '../../src/runner/run-outcomes.js';
import { RunScope } from '../../src/runner/run-scope.js';
import { prepareRunner } from '../../src/runner/runner.js';
import type { PreparedRunner } from '../../src/session-run/session-request.js';
import { buildSessionConfig } from '../../src/session-run/session-runner.js';

/** The session config the runtime would give the core for the top agent of `path` (MCP closed after). */
export async function sessionConfigOf(
  path: string,
  options: RunAgentFileOptions,
): Promise<{ config: AgentSessionConfig; prepared: PreparedRunner }> {
  const prepared = await prepareRunner(path, {
    clientFactory: ({ provider, model }) => scriptedModel([], { provider, model }),
    ...options,
  });
  const { context } = prepared;
  try {
    const config = buildSessionConfig(context, {
      definition: context.tree.root,
      prompt: 'the prompt',
      expectedOutput: runExpectedOutput(context.tree.root, {}),
      depth: 0,
      trace: { llm: false, mcp: false },
      scope: new RunScope(undefined, (text) => text),
    });
    return { config, prepared };
  } finally {
    await context.mcp.close();
  }
}
