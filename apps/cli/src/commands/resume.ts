import type { ApprovalDecision } from '@agent/protocol';
import { usageError } from '../cli-error.js';
import type { CliExitCode } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { parseRunOptions, type RunCliOptions } from './run-options.js';
import { runSession } from './run-session.js';

export interface ResumeCliOptions extends RunCliOptions {
  approve?: string[];
  deny?: string[];
  reason?: string;
  agent?: string;
}

/** The decisions `--approve` / `--deny` / `--reason` give, by call id. */
export function approvalsFrom(options: ResumeCliOptions): Record<string, ApprovalDecision> {
  const approvals: Record<string, ApprovalDecision> = {};
  for (const id of options.approve ?? []) approvals[id] = { approved: true };
  for (const id of options.deny ?? []) {
    if (approvals[id] !== undefined) throw usageError(`--approve and --deny both name call ${id}`);
    approvals[id] =
      options.reason === undefined ? { approved: false } : { approved: false, reason: options.reason };
  }
  if (options.reason !== undefined && (options.deny ?? []).length === 0) {
    throw usageError('--reason goes with --deny <call-id>: it is what the model is told about the denial');
  }
  return approvals;
}

/** `agent resume <session-id> [--approve <call-id>] [--deny <call-id> --reason "..."]`. */
export async function resumeCommand(
  sessionId: string,
  options: ResumeCliOptions,
  io: CliIo,
): Promise<CliExitCode> {
  const approvals = approvalsFrom(options);
  return runSession({
    file: options.agent ?? '',
    prompt: '',
    resume: { sessionId, approvals, ...(options.agent === undefined ? {} : { agentFile: options.agent }) },
    run: parseRunOptions(options),
    display: {
      verbose: options.verbose === true,
      json: options.json === true,
      quiet: options.quiet === true,
      progress: options.progress === true,
      ...(options.accounting === undefined ? {} : { accountingPath: options.accounting }),
    },
    io,
  });
}
