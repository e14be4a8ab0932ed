import { AgentError, type AgentEvent, type AgentEventMeta } from '@agent/protocol';
import { signalExitCode } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import type { AccountingFile } from '../output/accounting-file.js';
import { AssistantTextLog } from '../output/assistant-text-log.js';
import { formatCompactLog, showsWithoutVerbose } from '../output/compact-log.js';
import { formatLogEntry } from '../output/logfmt.js';
import { ProgressLines } from '../output/progress-lines.js';
import { StatusLine } from '../output/status-line.js';
import { terminalCaps } from '../output/terminal.js';
import { type InterruptSignal, installInterruptHandlers } from '../signals.js';
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

/** What stderr shows while a run goes: the live status line (a terminal) or `--progress` lines. */
export interface RunProgress {
  status: StatusLine | undefined;
  lines: ProgressLines | undefined;
  /** A line on stderr, above the status line when there is one. */
  printErr: (line: string) => void;
}

export function openProgress(io: CliIo, display: RunDisplay, maxTurns: number | undefined): RunProgress {
  const errCaps = terminalCaps(io.stderr, io.env);
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
  if (lines !== undefined && maxTurns !== undefined) lines.state.maxTurns = maxTurns;
  if (status !== undefined && maxTurns !== undefined) status.state.maxTurns = maxTurns;
  const printErr = (line: string) => {
    if (status === undefined) io.stderr.write(`${line}\n`);
    else status.printAbove(`${line}\n`);
  };
  return { status, lines, printErr };
}

/** The run's event listener, and what prints the text still held when the run ends. */
export interface TerminalEvents {
  onEvent: (event: AgentEvent, meta: AgentEventMeta) => void;
  finish: () => void;
}

/**
 * The run's events on the terminal: the progress display, what the model says outside its
 * report (with --verbose), log lines (logfmt with --verbose, and
 * TRC ones with --trace-*; otherwise warnings and errors, compactly) and the accounting file.
 */
export function terminalEvents(
  progress: RunProgress,
  run: Pick<ParsedRunOptions, 'traceLlm' | 'traceMcp'>,
  display: RunDisplay,
  accounting: AccountingFile | undefined,
): TerminalEvents {
  const { status, lines, printErr } = progress;
  const asLogfmt = (severity: string) =>
    display.verbose || (severity === 'TRC' && (run.traceLlm || run.traceMcp));
  const said = display.verbose ? new AssistantTextLog(printErr) : undefined;
  const onEvent = (event: AgentEvent, meta: AgentEventMeta) => {
    status?.onEvent(event, meta);
    lines?.onEvent(event, meta);
    said?.onEvent(event, meta);
    if (event.type === 'log') {
      const entry =
        event.entry.agentPath === undefined ? { ...event.entry, agentPath: meta.agentPath } : event.entry;
      if (asLogfmt(entry.severity)) printErr(formatLogEntry(entry));
      else if (showsWithoutVerbose(entry, meta)) printErr(formatCompactLog(entry));
    } else if (event.type === 'accounting') {
      accounting?.append(event.entry, meta.agentPath);
    }
  };
  return { onEvent, finish: () => said?.close() };
}

/** The run's two signals and the interrupt that arrived, if any. */
export interface Interrupts {
  /** Aborted by the first Ctrl-C: a last turn that asks for the report. */
  stopSignal: AbortSignal;
  /** Aborted by a second Ctrl-C or SIGTERM: the run is cancelled. */
  signal: AbortSignal;
  /** The signal that arrived: the run then ends with 130 (SIGINT) or 143 (SIGTERM), as shells expect. */
  readonly received: InterruptSignal | undefined;
  remove(): void;
}

/** `graceMs`: how long the process waits for the session to come back after a hard abort. */
export function watchInterrupts(progress: RunProgress, graceMs: number): Interrupts {
  const { status, printErr } = progress;
  const stopper = new AbortController();
  const controller = new AbortController();
  let received: InterruptSignal | undefined;
  let forcedExit: NodeJS.Timeout | undefined;
  const remove = installInterruptHandlers({
    onStop: () => {
      received = 'SIGINT';
      status?.setNote('stopping: asking for the report (Ctrl-C again to cancel at once)');
      if (status === undefined)
        printErr('agent: stopping, asking for the report (press Ctrl-C again to cancel at once)');
      stopper.abort(new AgentError('aborted', 'stopped by the user (SIGINT)'));
    },
    onAbort: (signal) => {
      received = signal;
      controller.abort(new AgentError('aborted', `cancelled by ${signal}`));
      status?.stop();
      printErr('agent: cancelled');
      forcedExit ??= setTimeout(() => process.exit(signalExitCode(signal)), graceMs);
      forcedExit.unref();
    },
  });
  return {
    stopSignal: stopper.signal,
    signal: controller.signal,
    get received() {
      return received;
    },
    remove,
  };
}
