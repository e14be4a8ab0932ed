import type {
  CompactionRun,
  ExitCode,
  FinalReport,
  GuardrailRun,
  LlmAccountingEntry,
  OpKind,
  OpTotals,
  ToolPolicyVerdict,
} from '@agent/protocol';

/** One operation as the viewer shows it: a session, a turn, an LLM call, a tool call, a guardrail run or a compaction. */
export interface ViewNode {
  id: string;
  kind: OpKind;
  /** Session: agent path; turn: `turn N`; llm: `provider:model`; tool: the tool's name. */
  label: string;
  startedAt: number;
  endedAt?: number;
  status: 'running' | 'ok' | 'failed';
  error?: string;
  /** LLM calls. */
  model?: string;
  inputTokens?: number;
  outputTokens?: number;
  cachedTokens?: number;
  costUsd?: number;
  latencyMs?: number;
  /** Tool calls: the arguments and the result, folded when long (`fold`). */
  callId?: string;
  arguments?: string;
  result?: string;
  /** Tool calls: what the tool policy decided, and the rule that matched. */
  policy?: ToolPolicyVerdict;
  /** Guardrail runs: the verdict (`outcome`), the phase, the call checked and the reason. */
  guardrail?: GuardrailRun;
  /** Compactions: before/after tokens, the turns replaced, the handle and the summary (folded). */
  compaction?: CompactionRun;
  /** Sub-agent sessions: their id; they hang under the tool call that ran them. */
  sessionId?: string;
  children: ViewNode[];
}

/** One session in the list. */
export interface SessionSummary {
  /** The viewer's id of the run (known from its start, before the session has said its own). */
  id: string;
  /** The top session's id, once its first event said it. */
  sessionId?: string;
  agent: string;
  /** The face that ran it (`rest`, `openai`, `anthropic`, `mcp`, `slack`, ...). */
  headend?: string;
  /** The principal that started it (a hashed token); absent for runs no client started. */
  owner?: string;
  status: 'running' | 'ok' | 'failed';
  /** Why the session ended, once it did (`EXIT-FINAL-REPORT-SCHEMA-MISMATCH`: failed, with a report). */
  exitCode?: ExitCode;
  startedAt: number;
  endedAt?: number;
  totals: OpTotals;
  reportStatus?: FinalReport['status'];
}

/** One session in full: its tree, its report, and whether nodes were dropped (too many). */
export interface SessionView extends SessionSummary {
  tree: ViewNode;
  report?: FinalReport;
  error?: string;
  /** Nodes not kept once the session reached `maxNodes`. */
  droppedNodes: number;
}

/** Longest text kept of one argument or result; the rest is counted, not kept. */
export const FOLD_CHARS = 4000;

/** `text`, cut to `limit` characters with a note of how many were left out. */
export function fold(text: string, limit = FOLD_CHARS): string {
  if (text.length <= limit) return text;
  return `${text.slice(0, limit)}\n… (${text.length - limit} more characters not kept)`;
}

/** A JSON value as folded text (pretty, so the page can show it as is). */
export function foldJson(value: unknown, limit = FOLD_CHARS): string {
  let text: string;
  try {
    text = typeof value === 'string' ? value : (JSON.stringify(value, null, 2) ?? String(value));
  } catch {
    text = String(value);
  }
  return fold(text, limit);
}

/** What an LLM call's accounting entry tells its node: the model that answered, tokens, cost, latency. */
export function llmCallFields(entry: LlmAccountingEntry): Partial<ViewNode> {
  return {
    model: entry.actualModel ?? entry.model,
    inputTokens: entry.tokens.inputTokens,
    outputTokens: entry.tokens.outputTokens,
    cachedTokens: entry.tokens.cachedTokens ?? 0,
    costUsd: entry.costUsd ?? 0,
    latencyMs: entry.latency,
  };
}

/** Longest reason kept of a guardrail verdict or a policy decision (they name rules: short). */
const REASON_CHARS = 500;

/** A guardrail run's node fields: its verdict, and its status (`failed` when it stopped the run). */
export function guardrailFields(run: GuardrailRun): Pick<ViewNode, 'guardrail' | 'status' | 'latencyMs'> {
  const guardrail =
    run.reason === undefined ? { ...run } : { ...run, reason: fold(run.reason, REASON_CHARS) };
  const tripped = run.outcome === 'block' || (run.outcome === 'error' && run.failedOpen !== true);
  return { guardrail, status: tripped ? 'failed' : 'ok', latencyMs: run.latencyMs };
}

/** A compaction's node fields: the run (summary folded), `failed` when it changed nothing. */
export function compactionFields(
  run: CompactionRun,
  foldChars: number,
): Pick<ViewNode, 'compaction' | 'status' | 'latencyMs' | 'error'> {
  const compaction = { ...run };
  if (run.summary !== undefined) compaction.summary = fold(run.summary, foldChars);
  if (run.error !== undefined) compaction.error = fold(run.error, REASON_CHARS);
  return {
    compaction,
    status: run.outcome === 'failed' ? 'failed' : 'ok',
    latencyMs: run.durationMs,
    ...(compaction.error === undefined ? {} : { error: compaction.error }),
  };
}

/** A policy decision as a tool node keeps it (its reason folded). */
export function policyField(verdict: ToolPolicyVerdict): ToolPolicyVerdict {
  return verdict.reason === undefined
    ? { ...verdict }
    : { ...verdict, reason: fold(verdict.reason, REASON_CHARS) };
}

/** A report with its payload folded to `limit` characters (content and JSON alike). */
export function foldReport(report: FinalReport, limit: number): FinalReport {
  const folded: FinalReport = { ...report };
  if (folded.content !== undefined) folded.content = fold(folded.content, limit);
  if (folded.content_json !== undefined) {
    const text = JSON.stringify(folded.content_json);
    if (text.length > limit) {
      delete folded.content_json;
      folded.content = fold(JSON.stringify(report.content_json, null, 2), limit);
    }
  }
  return folded;
}

/** The list's line of a session. */
export function summary(view: SessionView): SessionSummary {
  return {
    id: view.id,
    ...(view.sessionId === undefined ? {} : { sessionId: view.sessionId }),
    agent: view.agent,
    ...(view.headend === undefined ? {} : { headend: view.headend }),
    ...(view.owner === undefined ? {} : { owner: view.owner }),
    status: view.status,
    ...(view.exitCode === undefined ? {} : { exitCode: view.exitCode }),
    startedAt: view.startedAt,
    ...(view.endedAt === undefined ? {} : { endedAt: view.endedAt }),
    totals: view.totals,
    ...(view.reportStatus === undefined ? {} : { reportStatus: view.reportStatus }),
  };
}
