import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AccountingEntry, LogEntry, ModelTarget, ToolOutputHookContext } from '@agent/protocol';
import { type ScriptStep, scriptedModel } from '@agent/testkit';
import { afterEach } from 'vitest';

export const NONCE = 'feed1234';
export const TAG = `ai-agent-${NONCE}-FINAL`;

/** An extraction answer in the FINAL wrapper; `closed: false` leaves the closing tag out. */
export function wrapped(text: string, closed = true): string {
  return `<${TAG} format="text">${text}${closed ? `</${TAG}>` : ''}`;
}

const dirs: string[] = [];

/** A temp directory removed after the test. */
export function tempDir(prefix = 'tool-output-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

export interface RecordingContext extends ToolOutputHookContext {
  logs: Omit<LogEntry, 'timestamp'>[];
  accounting: AccountingEntry[];
}

export function recordingContext(overrides: Partial<ToolOutputHookContext> = {}): RecordingContext {
  const logs: Omit<LogEntry, 'timestamp'>[] = [];
  const accounting: AccountingEntry[] = [];
  return {
    sessionId: 'test-session',
    nonce: NONCE,
    targets: [],
    signal: new AbortController().signal,
    log: (entry) => logs.push(entry),
    account: (entry) => accounting.push(entry),
    logs,
    accounting,
    ...overrides,
  };
}

export function scriptedTarget(steps: ScriptStep[], options: Partial<Omit<ModelTarget, 'client'>> = {}) {
  const client = scriptedModel(steps, { provider: 'x', model: 'extractor' });
  return { client, target: { client, ...options } satisfies ModelTarget };
}

/** A text of `lines` log lines, ~60 bytes each; every 1000th line is an ERROR. */
export function logText(lines: number): string {
  const out: string[] = [];
  for (let i = 1; i <= lines; i++) {
    out.push(
      i % 1000 === 0
        ? `2026-01-14T10:00:00Z ERROR worker-${i} failed: disk quota exceeded`
        : `2026-01-14T10:00:00Z INFO worker-${i} processed item ${i}`,
    );
  }
  return `${out.join('\n')}\n`;
}
