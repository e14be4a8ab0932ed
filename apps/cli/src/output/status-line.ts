import type { AgentEvent, AgentEventMeta, ProgressEvent } from '@agent/protocol';

/** What the status line shows; fed from the run's events. */
export interface StatusState {
  turn: number;
  maxTurns?: number;
  model?: string;
  /** Running external tools by call id (tool name as value). */
  tools: Map<string, string>;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  /** The top agent's compactions that replaced turns (docs/compaction.md). */
  compactions: number;
  startedAt: number;
  /** A short note (e.g. "stopping...") shown at the end. */
  note?: string;
}

export function newStatusState(now: number): StatusState {
  return {
    turn: 0,
    tools: new Map(),
    inputTokens: 0,
    outputTokens: 0,
    costUsd: 0,
    compactions: 0,
    startedAt: now,
  };
}

/** Updates the state from one event; returns true when something visible changed. */
export function applyStatusEvent(state: StatusState, event: AgentEvent, meta: AgentEventMeta): boolean {
  switch (event.type) {
    case 'turn_started':
      if (!meta.isMaster) return false;
      state.turn = event.turn;
      return true;
    case 'accounting':
      if (event.entry.type !== 'llm') return false;
      state.inputTokens += event.entry.tokens.inputTokens;
      state.outputTokens += event.entry.tokens.outputTokens;
      state.costUsd += event.entry.costUsd ?? 0;
      return true;
    case 'log': {
      // The model in use: the structured target of an LLM request (never the message text).
      const entry = event.entry;
      if (
        entry.type !== 'llm' ||
        entry.direction !== 'request' ||
        entry.remoteIdentifier.startsWith('agent:')
      )
        return false;
      state.model = meta.isMaster ? entry.remoteIdentifier : `${meta.agentPath} ${entry.remoteIdentifier}`;
      return true;
    }
    case 'progress':
    case 'status':
      return applyToolProgress(state, event.event);
    case 'compaction':
      if (!meta.isMaster || event.run.outcome !== 'compacted') return false;
      state.compactions += 1;
      return true;
    default:
      return false;
  }
}

/** Running tools come from `tool_started` / `tool_finished`, keyed by agent path and call id. */
function applyToolProgress(state: StatusState, progress: ProgressEvent): boolean {
  if (progress.type !== 'tool_started' && progress.type !== 'tool_finished') return false;
  const key = `${progress.agentPath}/${progress.callId}`;
  if (progress.type === 'tool_started') state.tools.set(key, progress.tool);
  else state.tools.delete(key);
  return true;
}

export function formatElapsed(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes}m${String(seconds % 60).padStart(2, '0')}s`;
}

function formatTokens(count: number): string {
  return count >= 10_000 ? `${(count / 1000).toFixed(1)}k` : String(count);
}

/**
 * One line, at most `columns - 1` characters (so the cursor never wraps). The short fixed
 * parts come first (turn, elapsed, tokens, cost, note); model and tools last, where a narrow
 * terminal cuts them.
 */
export function renderStatus(state: StatusState, now: number, columns: number): string {
  const turn =
    state.turn === 0
      ? 'starting'
      : `turn ${state.turn}${state.maxTurns === undefined ? '' : `/${state.maxTurns}`}`;
  const parts = [turn, formatElapsed(now - state.startedAt)];
  parts.push(`${formatTokens(state.inputTokens)} in / ${formatTokens(state.outputTokens)} out tok`);
  if (state.costUsd > 0) parts.push(`$${state.costUsd.toFixed(4)}`);
  if (state.compactions > 0)
    parts.push(`${state.compactions} compaction${state.compactions === 1 ? '' : 's'}`);
  if (state.note !== undefined) parts.push(state.note);
  if (state.model !== undefined) parts.push(state.model);
  if (state.tools.size > 0) parts.push(`tools: ${[...new Set(state.tools.values())].join(', ')}`);
  const line = parts.join(' | ');
  const width = Math.max(10, columns - 1);
  return line.length <= width ? line : `${line.slice(0, width - 1)}…`;
}

export interface StatusWriter {
  write(text: string): void;
}

export interface StatusLineOptions {
  out: StatusWriter;
  /** ANSI allowed: clear with `ESC[2K`, draw dim; else overwrite with spaces. */
  ansi: boolean;
  columns: () => number;
  now?: () => number;
  /** Minimum milliseconds between redraws (default 100: ~10 per second). */
  throttleMs?: number;
}

/**
 * A live status line on a terminal: redrawn in place with `\r`, throttled, cleared before
 * anything else is printed on the same stream and before the final output.
 */
export class StatusLine {
  readonly state: StatusState;
  private readonly now: () => number;
  private readonly throttleMs: number;
  private shown = '';
  private lastDraw = 0;
  private pending: NodeJS.Timeout | undefined;
  private ticker: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly options: StatusLineOptions) {
    this.now = options.now ?? Date.now;
    this.throttleMs = options.throttleMs ?? 100;
    this.state = newStatusState(this.now());
  }

  /** Starts a 1 s tick so the elapsed time moves while nothing else happens. */
  start(): void {
    this.ticker = setInterval(() => this.update(), 1000);
    this.ticker.unref();
    this.draw();
  }

  onEvent(event: AgentEvent, meta: AgentEventMeta): void {
    if (applyStatusEvent(this.state, event, meta)) this.update();
  }

  setNote(note: string): void {
    this.state.note = note;
    this.draw();
  }

  /** Redraws now or schedules one redraw at the end of the throttle window. */
  update(): void {
    if (this.stopped) return;
    const wait = this.lastDraw + this.throttleMs - this.now();
    if (wait <= 0) {
      this.draw();
      return;
    }
    if (this.pending !== undefined) return;
    this.pending = setTimeout(() => {
      this.pending = undefined;
      this.draw();
    }, wait);
    this.pending.unref();
  }

  /** Prints text (ending with a newline) above the status line. */
  printAbove(text: string): void {
    this.clear();
    this.options.out.write(text);
    if (!this.stopped) this.draw();
  }

  /** Removes the line and stops redrawing. */
  stop(): void {
    this.stopped = true;
    if (this.pending !== undefined) clearTimeout(this.pending);
    if (this.ticker !== undefined) clearInterval(this.ticker);
    this.pending = undefined;
    this.ticker = undefined;
    this.clear();
  }

  private draw(): void {
    if (this.stopped) return;
    this.lastDraw = this.now();
    const line = renderStatus(this.state, this.lastDraw, this.options.columns());
    if (this.options.ansi) {
      this.options.out.write(`\r\x1b[2K\x1b[2m${line}\x1b[0m`);
    } else {
      const padding = ' '.repeat(Math.max(0, this.shown.length - line.length));
      this.options.out.write(`\r${line}${padding}`);
    }
    this.shown = line;
  }

  private clear(): void {
    if (this.shown.length === 0) return;
    this.options.out.write(this.options.ansi ? '\r\x1b[2K' : `\r${' '.repeat(this.shown.length)}\r`);
    this.shown = '';
  }
}
