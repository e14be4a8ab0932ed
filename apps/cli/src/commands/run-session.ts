import type { AgentResult, ApprovalDecision } from '@agent/protocol';
import { errorMessage } from '@agent/protocol/util';
import type { ResolveOptions, RunAgentFileOptions } from '@agent/runtime';
import type { OtelExport } from '@agent/telemetry/export';
import { terminalApprover } from '../approval-prompt.js';
import { CliError } from '../cli-error.js';
import { CLI_EXIT, type CliExitCode, exitCodeForResult, signalExitCode } from '../exit-codes.js';
import { type CliIo, writeAndFlush } from '../io.js';
import { AccountingFile } from '../output/accounting-file.js';
import { resultForJson } from '../output/json-result.js';
import { renderReport } from '../output/render-report.js';
import { terminalCaps } from '../output/terminal.js';
import { adoptionNotice, describeEnding, printableReport } from './run-ending.js';
import type { ParsedRunOptions } from './run-options.js';
import {
  type Interrupts,
  openProgress,
  type RunDisplay,
  type RunProgress,
  terminalEvents,
  watchInterrupts,
} from './run-terminal.js';

export interface RunSessionParams {
  file: string;
  prompt: string;
  run: ParsedRunOptions;
  display: RunDisplay;
  /** `agent resume`: continue this stored session instead of running `prompt`. */
  resume?: { sessionId: string; approvals: Record<string, ApprovalDecision>; agentFile?: string };
  /** `--session-id`: the new run's id (default a random UUID). */
  sessionId?: string;
  /** `--conversation NAME`: the conversation the run continues (docs/sessions.md). */
  conversationId?: string;
  /** Extra resolution settings (the demo points cwd, env and config dirs elsewhere). */
  resolve?: Omit<ResolveOptions, 'configPath'>;
  io: CliIo;
}

/** Milliseconds the process waits for the session to come back after a hard abort. */
const ABORT_GRACE_MS = 2_000;

/**
 * OTLP export when agent.json's `telemetry` or the OTEL_* variables name an endpoint; the SDK is
 * loaded only then. A config that cannot be read sets nothing up: the run reports its error.
 */
async function startTracing(
  runtime: typeof import('@agent/runtime'),
  params: RunSessionParams,
): Promise<OtelExport | undefined> {
  const env = params.resolve?.env ?? process.env;
  let section: ReturnType<typeof runtime.telemetrySettings>;
  try {
    section = runtime.telemetrySettings({
      ...params.resolve,
      ...(params.run.configPath === undefined ? {} : { configPath: params.run.configPath }),
      agentFile: params.file,
    });
  } catch {
    return undefined;
  }
  // startOtelExport loads the OpenTelemetry SDK only when an endpoint is named.
  const { startOtelExport } = await import('@agent/telemetry/export');
  return startOtelExport(section, env, 'agent-cli');
}

/** Runs one agent file with the terminal wired up; resolves to the process exit code. */
export async function runSession(params: RunSessionParams): Promise<CliExitCode> {
  const { io, display } = params;
  const errCaps = terminalCaps(io.stderr, io.env);
  const progress = openProgress(io, display, params.run.maxTurns);
  const accounting = await openAccounting(params, progress.printErr);
  const events = terminalEvents(progress, params.run, display, accounting);
  const onEvent = events.onEvent;
  const interrupts = watchInterrupts(progress, ABORT_GRACE_MS);
  const options = runOptions(params, { onEvent, interrupts, progress, approvesOnTerminal: errCaps.isTty });

  progress.status?.start();
  let result: AgentResult;
  let otel: OtelExport | undefined;
  try {
    // Loaded on demand: `--help` and usage errors do not pay for the SDKs.
    const runtime = await import('@agent/runtime');
    otel = await startTracing(runtime, params);
    const resume = params.resume;
    result =
      resume === undefined
        ? await runtime.runAgentFile(params.file, params.prompt, options)
        : await runtime.resumeStoredSession(resume.sessionId, {
            ...options,
            approvals: resume.approvals,
            ...(resume.agentFile === undefined ? {} : { agentFile: resume.agentFile }),
          });
  } finally {
    events.finish();
    progress.status?.stop();
    progress.lines?.finish();
    interrupts.remove();
    accounting?.close();
    // The run's spans are exported before the CLI exits.
    await otel?.shutdown().catch(() => undefined);
  }

  // An interrupted run exits 130/143 even when the model still handed in a report (printed below).
  const code =
    interrupts.received === undefined ? exitCodeForResult(result) : signalExitCode(interrupts.received);
  await printOutcome(result, code, params);
  return code;
}

/** The runtime's options for this run: the flags, the terminal's listener and signals, durability. */
function runOptions(
  params: RunSessionParams,
  wired: {
    onEvent: NonNullable<RunAgentFileOptions['onEvent']>;
    interrupts: Interrupts;
    progress: RunProgress;
    approvesOnTerminal: boolean;
  },
): RunAgentFileOptions {
  const { run } = params;
  const { status } = wired.progress;
  return {
    ...params.resolve,
    ...(run.configPath === undefined ? {} : { configPath: run.configPath }),
    ...(run.models === undefined ? {} : { models: run.models }),
    ...(run.topModels === undefined ? {} : { topModels: run.topModels }),
    ...(run.format === undefined ? {} : { format: run.format }),
    ...(run.schema === undefined ? {} : { schema: run.schema }),
    ...(run.maxTurns === undefined ? {} : { maxTurns: run.maxTurns }),
    ...(run.approvalTimeoutMs === undefined ? {} : { approvalTimeoutMs: run.approvalTimeoutMs }),
    ...(run.overrides === undefined ? {} : { overrides: run.overrides }),
    ...(run.settings === undefined ? {} : { settings: run.settings }),
    traceLlm: run.traceLlm,
    traceMcp: run.traceMcp,
    headendId: 'cli',
    onEvent: wired.onEvent,
    signal: wired.interrupts.signal,
    stopSignal: wired.interrupts.stopSignal,
    // Every run keeps checkpoints, so `agent resume` can continue it after a crash.
    durable: true,
    ...(params.sessionId === undefined ? {} : { sessionId: params.sessionId }),
    ...(params.conversationId === undefined ? {} : { conversationId: params.conversationId }),
    // On a terminal a person answers approvals at once; elsewhere the run pauses (exit 10).
    ...(process.stdin.isTTY === true && wired.approvesOnTerminal
      ? {
          approver: terminalApprover(process.stdin, process.stderr, {
            pause: () => status?.stop(),
            resume: () => status?.start(),
          }),
        }
      : {}),
  };
}

/** The report (or the whole result with --json) on stdout; the adoption notice and closing line on stderr. */
async function printOutcome(result: AgentResult, code: CliExitCode, params: RunSessionParams): Promise<void> {
  const { io, display } = params;
  // A report the session made up is no answer: a pipeline must not take it for one.
  const report = printableReport(result);
  if (display.json) {
    await writeAndFlush(io.stdout, `${JSON.stringify(resultForJson(result), null, 2)}\n`);
  } else if (report !== undefined) {
    const outCaps = terminalCaps(io.stdout, io.env);
    const rendered = await renderReport(report, { ansi: outCaps.ansi, columns: outCaps.columns });
    await writeAndFlush(io.stdout, rendered);
  }
  const adopted = adoptionNotice(result.finalReport);
  if (adopted !== undefined) await writeAndFlush(io.stderr, `${adopted}\n`);
  const ending = describeEnding(result, code);
  if (ending !== undefined) await writeAndFlush(io.stderr, `${ending}\n`);
}

/**
 * `--accounting` / `--billing-file`: this run's entries in a file of its own (the
 * configuration's `persistence.billingFile` ledger is written by the runtime); a file that
 * cannot be opened is a usage error.
 */
async function openAccounting(
  params: RunSessionParams,
  printErr: (line: string) => void,
): Promise<AccountingFile | undefined> {
  const path = params.display.accountingPath;
  const from = '--accounting';
  if (path === undefined) return undefined;
  try {
    return new AccountingFile(path, (message) => printErr(`agent: ${message}`));
  } catch (error) {
    throw new CliError(`${from}: cannot open ${path}: ${errorMessage(error)}`, CLI_EXIT.usage);
  }
}
