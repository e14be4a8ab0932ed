import type { AgentSessionConfig } from '@agent/core';
import {
  type AgentEvent,
  type AgentEventMeta,
  type AgentResult,
  type CacheHit,
  type ConversationMessage,
  emptyTotals,
  type FinalReport,
  type LlmAccountingEntry,
  type LogEntry,
  type SessionNode,
} from '@agent/protocol';

/** What a response cache entry holds: the report, and which model wrote it. */
export interface CachedResponse {
  v: 1;
  report: FinalReport;
  provider: string;
  model: string;
}

export interface ReplayInfo {
  hit: CacheHit;
  /** When the lookup started and ended (epoch ms). */
  startedAt: number;
  endedAt: number;
}

/**
 * The result of a session answered from the response cache, and the events a run would have
 * sent, in the same order and with the same meta: the `cache_hit` event, a log line, the
 * accounting entry (cost 0, no tokens, `cached: true`), the report as `output` and
 * `final_report`, the exit marker, and the op tree (its session node `cached: true`).
 */
export function replayCachedResponse(
  config: AgentSessionConfig,
  cached: CachedResponse,
  info: ReplayInfo,
): AgentResult {
  const meta = sessionEventMeta(config);
  const events = new ReplayEvents(config, meta, info.endedAt);
  const { report } = cached;
  events.emit({ type: 'cache_hit', hit: info.hit });
  events.log({
    severity: 'VRB',
    direction: 'response',
    type: 'llm',
    remoteIdentifier: 'agent:cache',
    message: `answered from the response cache (${info.hit.backend}, key ${info.hit.key}, stored ${seconds(info.hit.ageMs)} ago by ${cached.provider}/${cached.model}, expires in ${seconds(info.hit.expiresInMs)})`,
  });
  const entry = cachedEntry(cached, meta.agentPath, info);
  events.emit({ type: 'accounting', entry });
  const text =
    report.content ?? (report.content_json === undefined ? '' : JSON.stringify(report.content_json));
  if (text.length > 0) events.emit({ type: 'output', text }, { source: 'finalize' });
  events.emit({ type: 'final_report', report }, { isFinal: true });
  events.log({
    severity: 'VRB',
    direction: 'response',
    type: 'llm',
    remoteIdentifier: 'agent:EXIT-FINAL-ANSWER',
    message: `final report replayed from the response cache (${report.status})`,
  });
  const opTree = cachedTree(config.name ?? 'main', meta.sessionId, info);
  events.emit({ type: 'op_tree', tree: opTree });
  return {
    success: true,
    exitCode: 'EXIT-FINAL-ANSWER',
    finalReport: report,
    conversation: [...opening(config), { role: 'assistant', content: text }],
    logs: events.logs,
    accounting: [entry],
    opTree,
    sessionId: meta.sessionId,
  };
}

/** The meta of a session's events, as the session itself would give them (not final). */
export function sessionEventMeta(config: AgentSessionConfig): AgentEventMeta {
  const name = config.name ?? 'main';
  return {
    isMaster: config.isMaster ?? true,
    isFinal: false,
    sessionId: config.sessionId ?? '',
    agentPath: config.parentAgentPath === undefined ? name : `${config.parentAgentPath}.${name}`,
    ...(config.headendId === undefined ? {} : { headendId: config.headendId }),
  };
}

/** A replay's events to the session's listener, and its log lines kept for the result. */
class ReplayEvents {
  readonly logs: LogEntry[] = [];

  constructor(
    private readonly config: AgentSessionConfig,
    private readonly meta: AgentEventMeta,
    private readonly at: number,
  ) {}

  emit(event: AgentEvent, meta: Partial<AgentEventMeta> = {}): void {
    try {
      this.config.onEvent?.(event, { ...this.meta, ...meta });
    } catch {
      // A listener's bug must not end the run.
    }
  }

  log(entry: Omit<LogEntry, 'timestamp' | 'agentPath'>): void {
    const full: LogEntry = {
      timestamp: this.at,
      agentPath: this.meta.agentPath,
      ...(this.config.headendId === undefined ? {} : { headendId: this.config.headendId }),
      ...entry,
    };
    this.logs.push(full);
    this.emit({ type: 'log', entry: full });
  }
}

/** The accounting entry of a replay: the model that wrote the report, no tokens, cost 0, `cached`. */
function cachedEntry(cached: CachedResponse, agentPath: string, info: ReplayInfo): LlmAccountingEntry {
  return {
    type: 'llm',
    timestamp: info.endedAt,
    status: 'ok',
    latency: info.endedAt - info.startedAt,
    provider: cached.provider,
    model: cached.model,
    costUsd: 0,
    tokens: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    agentPath,
    cached: true,
  };
}

/**
 * The op tree of a replay: its session node marked `cached`, with no accounting on it and no
 * children (the totals count model calls, and none was made).
 */
function cachedTree(name: string, sessionId: string, info: ReplayInfo): SessionNode {
  return {
    id: 'op-0',
    kind: 'session',
    label: name,
    sessionId,
    startedAt: info.startedAt,
    endedAt: info.endedAt,
    status: 'ok',
    cached: true,
    children: [],
    totals: emptyTotals(info.endedAt - info.startedAt),
  };
}

/** The messages a session would have started with: system prompt, history, the prompt. */
function opening(config: AgentSessionConfig): ConversationMessage[] {
  return [
    ...(config.instructions === undefined ? [] : [{ role: 'system' as const, content: config.instructions }]),
    ...(config.history ?? []),
    { role: 'user', content: config.prompt },
  ];
}

function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`;
}
