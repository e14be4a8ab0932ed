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
 * The demo's directory: `$AGENT_EXAMPLES_DIR/demo`, else the copy of `examples/demo` that the
 * build puts beside the CLI's bundle (`dist/demo`, shipped in the package), so an installed
 * `agent` finds it as the repository's does.
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
  const shipped = join(dirname(from), 'demo');
  if (existsSync(join(shipped, 'agent.json'))) return shipped;
  throw new CliError(
    `no demo beside the CLI (${shipped}/agent.json is missing): rebuild it (pnpm build), or set ${EXAMPLES_DIR_ENV} to a directory holding demo/`,
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
