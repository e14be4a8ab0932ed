import type { OrchestrationSummary } from '@agent/protocol';
import type { ValidationProblem } from '@agent/runtime';
import { CLI_EXIT, type CliExitCode } from '../exit-codes.js';
import { type CliIo, writeAndFlush } from '../io.js';
import { orchestrationChain } from '../output/orchestration.js';
import { formatProblem, runtimeErrorProblem } from '../runtime-errors.js';

export interface ValidateCliOptions {
  config?: string;
  json?: boolean;
}

interface FileVerdict {
  file: string;
  ok: boolean;
  problems: ValidationProblem[];
  /** Likely mistakes that do not stop a run (unknown prompt variables, config sections not active). */
  warnings: ValidationProblem[];
  agents: string[];
  /** The agents that chain others (advisors, router, handoff), by name. */
  orchestration?: Record<string, OrchestrationSummary>;
}

/** `agent validate <file.ai...>`: checks files and their sub-agents without running anything. */
export async function validateCommand(
  files: string[],
  options: ValidateCliOptions,
  io: CliIo,
): Promise<CliExitCode> {
  const verdicts: FileVerdict[] = [];
  for (const file of files) verdicts.push(await validateOne(file, options));
  if (options.json === true) {
    await writeAndFlush(io.stdout, `${JSON.stringify(verdicts, null, 2)}\n`);
  } else {
    for (const verdict of verdicts) {
      for (const problem of verdict.problems) {
        io.stderr.write(`${formatProblem(problem)}\n`);
      }
      for (const warning of verdict.warnings) {
        io.stderr.write(`warning: ${formatProblem(warning)}\n`);
      }
      const summary = verdict.ok
        ? `ok ${verdict.file}${verdict.agents.length === 0 ? '' : ` (agents: ${verdict.agents.join(', ')})`}`
        : `${verdict.problems.length} problem${verdict.problems.length === 1 ? '' : 's'} in ${verdict.file}`;
      const chains = Object.entries(verdict.orchestration ?? {}).map(
        ([name, orchestration]) => `  ${name}: ${orchestrationChain(name, orchestration)}`,
      );
      if (verdict.ok) await writeAndFlush(io.stdout, [summary, ...chains, ''].join('\n'));
      else await writeAndFlush(io.stderr, `${summary}\n`);
    }
  }
  return verdicts.every((verdict) => verdict.ok) ? CLI_EXIT.success : CLI_EXIT.configuration;
}

async function validateOne(file: string, options: ValidateCliOptions): Promise<FileVerdict> {
  try {
    const { validateAgentFile } = await import('@agent/runtime');
    const outcome = await validateAgentFile(
      file,
      options.config === undefined ? {} : { configPath: options.config },
    );
    const ok = outcome.ok && outcome.problems.length === 0;
    const problems =
      outcome.ok || outcome.problems.length > 0 ? outcome.problems : [{ file, message: 'invalid' }];
    const chained = outcome.agents.filter((agent) => agent.orchestration !== undefined);
    return {
      file,
      ok,
      problems,
      warnings: outcome.warnings,
      agents: outcome.agents.map((agent) => agent.toolName),
      ...(chained.length === 0
        ? {}
        : {
            orchestration: Object.fromEntries(chained.map((agent) => [agent.toolName, agent.orchestration!])),
          }),
    };
  } catch (error) {
    const problem = runtimeErrorProblem(error, file);
    if (problem === undefined) throw error;
    return { file, ok: false, problems: [problem], warnings: [], agents: [] };
  }
}
