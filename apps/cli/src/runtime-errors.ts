import { AgentError } from '@agent/protocol';
import type { RuntimeError, ValidationProblem } from '@agent/runtime';

/** A message that already starts with a location (`dir/file.ai:3: ...`, `agent.json: ...`). */
const LOCATED = /^[^\s:]*[./][^\s:]*(:\d+)?: /;

export function startsWithLocation(message: string): boolean {
  return LOCATED.test(message);
}

/** `file:line: message` (or `file: message`), as compilers print it; never names the file twice. */
export function located(file: string | undefined, line: number | undefined, message: string): string {
  if (file === undefined || message.startsWith(file) || startsWithLocation(message)) return message;
  return line === undefined ? `${file}: ${message}` : `${file}:${line}: ${message}`;
}

/** A thrown runtime error as a problem with its location; undefined for any other error. */
export function runtimeErrorProblem(error: unknown, fallbackFile: string): ValidationProblem | undefined {
  if (!isRuntimeError(error)) return undefined;
  return {
    file: error.file ?? fallbackFile,
    ...(error.line === undefined ? {} : { line: error.line }),
    message: error.message,
  };
}

export function formatProblem(problem: ValidationProblem): string {
  return located(problem.file, problem.line, problem.message);
}

/** By brand and shape, so the runtime does not have to be loaded to recognise its errors. */
export function isRuntimeError(error: unknown): error is RuntimeError {
  return (
    AgentError.is(error) &&
    error.name === 'RuntimeError' &&
    typeof (error as { kind?: unknown }).kind === 'string'
  );
}
