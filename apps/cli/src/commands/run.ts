import { assertAgentFileExists } from '../agent-file-check.js';
import { usageError } from '../cli-error.js';
import type { CliExitCode } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { promptSource, readPromptFromStdin } from '../stdin.js';
import { parseRunOptions, type RunCliOptions } from './run-options.js';
import { runSession } from './run-session.js';

export interface RunCommandInput {
  file: string;
  prompt: string | undefined;
  options: RunCliOptions;
  io: CliIo;
  stdin?: NodeJS.ReadStream;
}

/** `agent run <file.ai> [prompt]`. */
export async function runCommand(input: RunCommandInput): Promise<CliExitCode> {
  const run = parseRunOptions(input.options);
  await assertAgentFileExists(input.file);
  const stdin = input.stdin ?? process.stdin;
  const source = promptSource(input.prompt, stdin.isTTY === true);
  if (source.kind === 'missing') {
    throw usageError(
      'a prompt is required: agent run FILE "prompt" (or pipe it: echo "prompt" | agent run FILE)',
    );
  }
  const prompt = source.kind === 'argument' ? source.text : await readPromptFromStdin(stdin);
  if (prompt.trim().length === 0) throw usageError('the prompt is empty');
  return runSession({
    file: input.file,
    prompt,
    run,
    ...(input.options.sessionId === undefined ? {} : { sessionId: input.options.sessionId }),
    ...(input.options.conversation === undefined ? {} : { conversationId: input.options.conversation }),
    display: {
      verbose: input.options.verbose === true,
      json: input.options.json === true,
      quiet: input.options.quiet === true,
      progress: input.options.progress === true,
      ...(input.options.accounting === undefined ? {} : { accountingPath: input.options.accounting }),
    },
    io: input.io,
  });
}
