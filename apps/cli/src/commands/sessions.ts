import type { StoreSealReport } from '@agent/runtime';
import { CliError } from '../cli-error.js';
import { CLI_EXIT, type CliExitCode } from '../exit-codes.js';
import { type CliIo, writeAndFlush } from '../io.js';
import { isRuntimeError, located } from '../runtime-errors.js';

export interface SessionsSealCliOptions {
  config?: string;
}

/** The lines `agent sessions seal` prints: the count and store, then each snapshot left unsealed. */
export function sealReportLines(report: StoreSealReport): string[] {
  const plural = report.sealed === 1 ? '' : 's';
  const lines = [
    `sealed ${report.sealed} session snapshot${plural} written before integrity tags (store ${report.store})`,
  ];
  for (const { sessionId, why } of report.skipped) lines.push(`skipped session ${sessionId}: ${why}`);
  if (report.unlisted > 0) lines.push(`skipped ${report.unlisted} more (not listed)`);
  return lines;
}

/**
 * `agent sessions seal [--config FILE]`: seals the snapshots of the session store written by a
 * release before integrity tags, so they resume (docs/sessions.md). The store is found as
 * `agent resume` finds it; one that cannot be used exits 7 (configuration).
 */
export async function sessionsSealCommand(
  options: SessionsSealCliOptions,
  io: CliIo,
  cwd = process.cwd(),
): Promise<CliExitCode> {
  let report: StoreSealReport;
  try {
    const { sealStoredSnapshots } = await import('@agent/runtime');
    report = await sealStoredSnapshots({
      cwd,
      env: io.env,
      ...(options.config === undefined ? {} : { configPath: options.config }),
    });
  } catch (error) {
    if (isRuntimeError(error)) {
      throw new CliError(located(error.file, error.line, error.message), CLI_EXIT.configuration);
    }
    throw error;
  }
  await writeAndFlush(io.stdout, `${sealReportLines(report).join('\n')}\n`);
  return CLI_EXIT.success;
}
