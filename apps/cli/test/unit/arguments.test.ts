import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { CliError } from '../../src/cli-error.js';
import { parseMaxTurns, parseRunOptions, readSchemaFile } from '../../src/commands/run-options.js';
import { expandShorthand } from '../../src/shorthand.js';
import { installInterruptHandlers } from '../../src/signals.js';
import { promptSource, readPromptFromStdin } from '../../src/stdin.js';

const dir = mkdtempSync(join(tmpdir(), 'agent-cli-args-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function usageCode(fn: () => unknown): number | undefined {
  try {
    fn();
  } catch (error) {
    return error instanceof CliError ? error.exitCode : -1;
  }
  return undefined;
}

describe('run options', () => {
  it('accepts good values', () => {
    const schemaFile = join(dir, 'schema.json');
    writeFileSync(schemaFile, '{"type":"object"}');
    expect(
      parseRunOptions({
        model: ['openai/gpt-4o', 'local/qwen3:8b'],
        maxTurns: '4',
        schema: schemaFile,
        traceLlm: true,
      }),
    ).toEqual({
      models: ['openai/gpt-4o', 'local/qwen3:8b'],
      maxTurns: 4,
      schema: { type: 'object' },
      format: 'json',
      traceLlm: true,
      traceMcp: false,
    });
  });

  it('rejects bad values as usage errors (exit 2)', () => {
    expect(usageCode(() => parseRunOptions({ format: 'html' }))).toBe(2);
    expect(usageCode(() => parseRunOptions({ model: ['gpt-4o'] }))).toBe(2);
    expect(usageCode(() => parseMaxTurns('0'))).toBe(2);
    expect(usageCode(() => parseMaxTurns('2.5'))).toBe(2);
    expect(usageCode(() => readSchemaFile(join(dir, 'missing.json')))).toBe(2);
    const notJson = join(dir, 'bad.json');
    writeFileSync(notJson, '{ nope');
    expect(usageCode(() => readSchemaFile(notJson))).toBe(2);
    const array = join(dir, 'array.json');
    writeFileSync(array, '[]');
    expect(usageCode(() => readSchemaFile(array))).toBe(2);
    expect(usageCode(() => parseRunOptions({ format: 'markdown', schema: array }))).toBe(2);
  });
});

describe('prompt source', () => {
  it('takes the argument, else stdin when piped or "-"', () => {
    expect(promptSource('hello', true)).toEqual({ kind: 'argument', text: 'hello' });
    expect(promptSource('-', true)).toEqual({ kind: 'stdin' });
    expect(promptSource(undefined, false)).toEqual({ kind: 'stdin' });
    expect(promptSource(undefined, true)).toEqual({ kind: 'missing' });
  });

  it('reads stdin without the trailing newline', async () => {
    const stream = new PassThrough();
    stream.end('question?\n\n');
    expect(await readPromptFromStdin(stream)).toBe('question?');
  });
});

describe('shorthand', () => {
  it('puts run in front of an existing file, or of a missing one named *.ai (run then says no such file)', () => {
    const file = join(dir, 'a.ai');
    writeFileSync(file, 'x');
    const commands = ['run', 'validate'];
    expect(expandShorthand([file, 'q'], commands)).toEqual(['run', file, 'q']);
    expect(expandShorthand(['validate', file], commands)).toEqual(['validate', file]);
    expect(expandShorthand([join(dir, 'nope.ai'), 'q'], commands)).toEqual([
      'run',
      join(dir, 'nope.ai'),
      'q',
    ]);
    expect(expandShorthand(['frobnicate'], commands)).toEqual(['frobnicate']);
    expect(expandShorthand(['--help'], commands)).toEqual(['--help']);
    expect(expandShorthand([dir], commands)).toEqual([dir]);
  });
});

describe('interrupts', () => {
  it('stops on the first SIGINT and aborts on the second; SIGTERM aborts', () => {
    const listeners = new Map<string, () => void>();
    const source = {
      on: (signal: string, listener: () => void) => listeners.set(signal, listener),
      off: (signal: string) => listeners.delete(signal),
    };
    const calls: string[] = [];
    const remove = installInterruptHandlers(
      { onStop: () => calls.push('stop'), onAbort: (signal) => calls.push(`abort ${signal}`) },
      source,
    );
    listeners.get('SIGINT')!();
    listeners.get('SIGINT')!();
    listeners.get('SIGTERM')!();
    expect(calls).toEqual(['stop', 'abort SIGINT', 'abort SIGTERM']);
    remove();
    expect(listeners.size).toBe(0);
  });
});
