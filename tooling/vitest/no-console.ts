// Library packages speak only through events and results. This setup fails any test
// that writes to the console or to the process's stdout/stderr, naming what was written.
import { format } from 'node:util';
import { afterEach, beforeEach } from 'vitest';

const consoleMethods = ['log', 'info', 'warn', 'error', 'debug', 'trace', 'dir', 'table'] as const;
type ConsoleMethod = (typeof consoleMethods)[number];

let written: string[] = [];
const originalConsole = new Map<ConsoleMethod, (...args: unknown[]) => void>();
const originalStdout = process.stdout.write;
const originalStderr = process.stderr.write;

function record(where: string) {
  return (chunk: unknown): boolean => {
    written.push(`${where}: ${typeof chunk === 'string' ? chunk : String(chunk)}`);
    return true;
  };
}

beforeEach(() => {
  written = [];
  for (const method of consoleMethods) {
    originalConsole.set(method, console[method] as (...args: unknown[]) => void);
    (console as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
      written.push(`console.${method}: ${format(...args)}`);
    };
  }
  process.stdout.write = record('process.stdout') as typeof process.stdout.write;
  process.stderr.write = record('process.stderr') as typeof process.stderr.write;
});

afterEach(() => {
  for (const [method, original] of originalConsole) {
    (console as unknown as Record<string, unknown>)[method] = original;
  }
  process.stdout.write = originalStdout;
  process.stderr.write = originalStderr;
  if (written.length > 0) {
    const shown = written.slice(0, 5).map((line) => `  ${line.slice(0, 200)}`);
    throw new Error(
      `Library code must not write to the console (use events). This test wrote ${written.length} time(s):\n${shown.join('\n')}`,
    );
  }
});
