import {
  AgentError,
  type AgentEvent,
  type AgentEventMeta,
  type AgentResult,
  type ApprovalDecision,
} from '@agent/protocol';
import { errorMessage } from '@agent/protocol/util';
import type { ResolveOptions, RunAgentFileOptions } from '@agent/runtime';
import type { OtelExport } from '@agent/telemetry/export';
import { terminalApprover } from '../approval-prompt.js';
import { CliError } from '../cli-error.js';
import { CLI_EXIT, type CliExitCode, exitCodeForResult, signalExitCode } from '../exit-codes.js';
import { type CliIo, writeAndFlush } from '../io.js';
import { AccountingFile } from '../output/accounting-file.js';
import { formatCompactLog, showsWithoutVerbose } from '../output/compact-log.js';
import { resultForJson } from '../output/json-result.js';
import { formatLogEntry } from '../output/logfmt.js';
import { ProgressLines } from '../output/progress-lines.js';
import { renderReport } from '../output/render-report.js';
import { StatusLine } from '../output/status-line.js';
import { terminalCaps } from '../output/terminal.js';
import { type InterruptSignal, installInterruptHandlers } from '../signals.js';
import { adoptionNotice, describeEnding, printableReport } from './run-ending.js';
import type { ParsedRunOptions } from './run-options.js';

/** How the CLI shows a run (terminal concerns only). */
export interface RunDisplay {
  verbose: boolean;
  /** The whole AgentResult as JSON on stdout instead of the report. */
  json: boolean;
  accountingPath?: string;
  /** `--quiet`: no progress on stderr, neither the live line nor `--progress` lines. */
  quiet?: boolean;
  /** `--progress`: one line per turn when stderr is not a terminal. */
  progress?: boolean;
}

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
  const outCaps = terminalCaps(io.stdout, io.env);
  const status =
    errCaps.isTty && display.quiet !== true
      ? new StatusLine({
          out: io.stderr,
          ansi: errCaps.ansi,
          columns: () => terminalCaps(io.stderr, io.env).columns,
        })
      : undefined;
  const lines =
    !errCaps.isTty && display.quiet !== true && display.progress === true
      ? new ProgressLines(io.stderr)
      : undefined;
  if (lines !== undefined && params.run.maxTurns !== undefined) lines.state.maxTurns = params.run.maxTurns;
  if (status !== undefined && params.run.maxTurns !== undefined) status.state.maxTurns = params.run.maxTurns;
  const printErr = (line: string) => {
    if (status === undefined) io.stderr.write(`${line}\n`);
    else status.printAbove(`${line}\n`);
  };

  const accounting = await openAccounting(params, printErr);

  // --verbose (and --trace-* for TRC): logfmt lines; otherwise warnings and errors, compactly.
  const asLogfmt = (severity: string) =>
    display.verbose || (severity === 'TRC' && (params.run.traceLlm || params.run.traceMcp));
  const onEvent = (event: AgentEvent, meta: AgentEventMeta) => {
    status?.onEvent(event, meta);
    lines?.onEvent(event, meta);
    if (event.type === 'log') {
      const entry =
        event.entry.agentPath === undefined ? { ...event.entry, agentPath: meta.agentPath } : event.entry;
      if (asLogfmt(entry.severity)) printErr(formatLogEntry(entry));
      else if (showsWithoutVerbose(entry, meta)) printErr(formatCompactLog(entry));
    } else if (event.type === 'accounting') {
      accounting?.append(event.entry, meta.agentPath);
    }
  };

  // First Ctrl-C: `stopSignal` (a last turn that asks for the report); second, or SIGTERM: `signal`.
  // The run ends with 130 (SIGINT) or 143 (SIGTERM) once a signal arrived, as shells expect.
  const stopper = new AbortController();
  const controller = new AbortController();
  let interrupted: InterruptSignal | undefined;
  let forcedExit: NodeJS.Timeout | undefined;
  const removeHandlers = installInterruptHandlers({
    onStop: () => {
      interrupted = 'SIGINT';
      status?.setNote('stopping: asking for the report (Ctrl-C again to cancel at once)');
      if (status === undefined)
        printErr('agent: stopping, asking for the report (press Ctrl-C again to cancel at once)');
      stopper.abort(new AgentError('aborted', 'stopped by the user (SIGINT)'));
    },
    onAbort: (signal) => {
      interrupted = signal;
      controller.abort(new AgentError('aborted', `cancelled by ${signal}`));
      status?.stop();
      printErr('agent: cancelled');
      forcedExit ??= setTimeout(() => process.exit(signalExitCode(signal)), ABORT_GRACE_MS);
      forcedExit.unref();
    },
  });

  const options: RunAgentFileOptions = {
    ...params.resolve,
    ...(params.run.configPath === undefined ? {} : { configPath: params.run.configPath }),
    ...(params.run.models === undefined ? {} : { models: params.run.models }),
    ...(params.run.topModels === undefined ? {} : { topModels: params.run.topModels }),
    ...(params.run.format === undefined ? {} : { format: params.run.format }),
    ...(params.run.schema === undefined ? {} : { schema: params.run.schema }),
    ...(params.run.maxTurns === undefined ? {} : { maxTurns: params.run.maxTurns }),
    ...(params.run.approvalTimeoutMs === undefined
      ? {}
      : { approvalTimeoutMs: params.run.approvalTimeoutMs }),
    ...(params.run.overrides === undefined ? {} : { overrides: params.run.overrides }),
    ...(params.run.settings === undefined ? {} : { settings: params.run.settings }),
    traceLlm: params.run.traceLlm,
    traceMcp: params.run.traceMcp,
    headendId: 'cli',
    onEvent,
    signal: controller.signal,
    stopSignal: stopper.signal,
    // Every run keeps checkpoints, so `agent resume` can continue it after a crash.
    durable: true,
    ...(params.sessionId === undefined ? {} : { sessionId: params.sessionId }),
    ...(params.conversationId === undefined ? {} : { conversationId: params.conversationId }),
    // On a terminal a person answers approvals at once; elsewhere the run pauses (exit 10).
    ...(process.stdin.isTTY === true && errCaps.isTty
      ? {
          approver: terminalApprover(process.stdin, process.stderr, {
            pause: () => status?.stop(),
            resume: () => status?.start(),
          }),
        }
      : {}),
  };

  status?.start();
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
    status?.stop();
    lines?.finish();
    removeHandlers();
    accounting?.close();
    // The run's spans are exported before the CLI exits.
    await otel?.shutdown().catch(() => undefined);
  }

  // An interrupted run exits 130/143 even when the model still handed in a report (printed below).
  const code = interrupted === undefined ? exitCodeForResult(result) : signalExitCode(interrupted);
  // A report the session made up is no answer: a pipeline must not take it for one.
  const report = printableReport(result);
  if (display.json) {
    await writeAndFlush(io.stdout, `${JSON.stringify(resultForJson(result), null, 2)}\n`);
  } else if (report !== undefined) {
    const rendered = await renderReport(report, { ansi: outCaps.ansi, columns: outCaps.columns });
    await writeAndFlush(io.stdout, rendered);
  }
  const adopted = adoptionNotice(result.finalReport);
  if (adopted !== undefined) await writeAndFlush(io.stderr, `${adopted}\n`);
  const ending = describeEnding(result, code);
  if (ending !== undefined) await writeAndFlush(io.stderr, `${ending}\n`);
  return code;
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
