import type { FinalReport } from '@agent/protocol';
import { expect } from 'vitest';
import type { ProcessFailure, ProcessResult, ProcessSuccess } from '../src/index.js';

export const NOW = () => 1_700_000_000_000;

export function expectOk(result: ProcessResult): ProcessSuccess & { report: FinalReport } {
  if (!result.ok)
    throw new Error(`expected ok, got ${result.slug}: ${result.reason}\n${result.diagnostics.join('\n')}`);
  return result;
}

export function expectFailure(result: ProcessResult, slug: ProcessFailure['slug']): ProcessFailure {
  expect(result.ok).toBe(false);
  if (result.ok) throw new Error('expected a failure');
  expect(result.slug).toBe(slug);
  return result;
}

export function base64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}
