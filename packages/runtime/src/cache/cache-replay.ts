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
  const name = config.name ?? 'main';
  const agentPath = config.parentAgentPath === undefined ? name : `${config.parentAgentPath}.${name}`;
  const sessionId = config.sessionId ?? '';
  const base = {
    isMaster: config.isMaster ?? true,
    sessionId,
    agentPath,
    ...(config.headendId === undefined ? {} : { headendId: config.headendId }),
  };
  const emit = (event: AgentEvent, meta: Partial<AgentEventMeta> = {}) => {
    try {
      config.onEvent?.(event, { ...base, isFinal: false, ...meta });
    } catch {
      // A listener's bug must not end the run.
    }
  };
  const logs: LogEntry[] = [];
  const log = (entry: Omit<LogEntry, 'timestamp' | 'agentPath'>) => {
    const full: LogEntry = {
      timestamp: info.endedAt,
      agentPath,
      ...(config.headendId === undefined ? {} : { headendId: config.headendId }),
      ...entry,
    };
    logs.push(full);
    emit({ type: 'log', entry: full });
  };
  const { report } = cached;
  emit({ type: 'cache_hit', hit: info.hit });
  log({
    severity: 'VRB',
    direction: 'response',
    type: 'llm',
    remoteIdentifier: 'agent:cache',
    message: `answered from the response cache (${info.hit.backend}, key ${info.hit.key}, stored ${seconds(info.hit.ageMs)} ago by ${cached.provider}/${cached.model}, expires in ${seconds(info.hit.expiresInMs)})`,
  });
  const entry = cachedEntry(cached, agentPath, info);
  emit({ type: 'accounting', entry });
  const text =
    report.content ?? (report.content_json === undefined ? '' : JSON.stringify(report.content_json));
  if (text.length > 0) emit({ type: 'output', text }, { source: 'finalize' });
  emit({ type: 'final_report', report }, { isFinal: true });
  log({
    severity: 'VRB',
    direction: 'response',
    type: 'llm',
    remoteIdentifier: 'agent:EXIT-FINAL-ANSWER',
    message: `final report replayed from the response cache (${report.status})`,
  });
  const opTree = cachedTree(name, sessionId, info);
  emit({ type: 'op_tree', tree: opTree });
  return {
    success: true,
    exitCode: 'EXIT-FINAL-ANSWER',
    finalReport: report,
    conversation: [...opening(config), { role: 'assistant', content: text }],
    logs,
    accounting: [entry],
    opTree,
    sessionId,
  };
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
