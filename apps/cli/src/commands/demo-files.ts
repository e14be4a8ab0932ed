import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { errorMessage } from '@agent/protocol/util';
import type { RecordedRequest, ScriptedAnswer } from '@agent/testkit';
import { CliError } from '../cli-error.js';
import { CLI_EXIT } from '../exit-codes.js';

/** Environment variable naming the examples directory (the one holding `demo/`). */
export const EXAMPLES_DIR_ENV = 'AGENT_EXAMPLES_DIR';

/**
 * The demo's directory: `$AGENT_EXAMPLES_DIR/demo`, else the first `examples/demo` with an
 * `agent.json` found walking up from the CLI's own file (in the repo: `apps/cli/dist` ->
 * `../../../examples/demo`).
 */
export function findDemoDir(env: NodeJS.ProcessEnv, from: string = fileURLToPath(import.meta.url)): string {
  const configured = env[EXAMPLES_DIR_ENV];
  if (configured !== undefined && configured !== '') {
    const dir = resolve(configured, 'demo');
    if (!existsSync(join(dir, 'agent.json'))) {
      throw new CliError(
        `${EXAMPLES_DIR_ENV}=${configured}: no demo/agent.json there`,
        CLI_EXIT.configuration,
      );
    }
    return dir;
  }
  let dir = dirname(from);
  for (;;) {
    const candidate = join(dir, 'examples', 'demo');
    if (existsSync(join(candidate, 'agent.json'))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  throw new CliError(
    `cannot find examples/demo above ${dirname(from)}; set ${EXAMPLES_DIR_ENV} to the repository's examples directory`,
    CLI_EXIT.configuration,
  );
}

/** A demo script: answers used once each in order, or cycled. */
export type DemoScript = { steps: ScriptedAnswer[] } | { loop: ScriptedAnswer[] };

export function readDemoScript(path: string): DemoScript {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new CliError(`cannot read the demo script ${path}: ${errorMessage(error)}`, CLI_EXIT.configuration);
  }
  const record = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  if (Array.isArray(record.steps)) return { steps: record.steps as ScriptedAnswer[] };
  if (Array.isArray(record.loop) && record.loop.length > 0) return { loop: record.loop as ScriptedAnswer[] };
  throw new CliError(
    `the demo script ${path} must be {"steps": [...]} or {"loop": [...]} with at least one answer`,
    CLI_EXIT.configuration,
  );
}

/** A server handler that cycles through `answers`. */
export function loopHandler(
  answers: readonly ScriptedAnswer[],
): (request: RecordedRequest) => ScriptedAnswer {
  let call = 0;
  return () => answers[call++ % answers.length]!;
}
