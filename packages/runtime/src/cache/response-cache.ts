import { type Cache, cacheKey, formatTtl } from '@agent/cache';
import type { AgentSessionConfig } from '@agent/core';
import type { AgentResult } from '@agent/protocol';
import { errorMessage, isRecord } from '@agent/protocol/util';
import { effectiveCacheTtl } from '../agent-file/setting-overrides.js';
import type { RunnerContext, SessionRequest } from '../session-run/session-request.js';
import { agentHash } from './agent-hash.js';
import { type CachedResponse, replayCachedResponse, sessionEventMeta } from './cache-replay.js';

/**
 * Runs a session through the response cache when its agent has a `cache` TTL: the same request
 * (agent hash, expanded prompt, settings, models, user prompt, history, output format and schema)
 * within the TTL gets the stored report without any model call; a successful report is stored.
 * A store that fails is a warning and a miss: the run itself never fails because of the cache.
 */
export async function runWithResponseCache(
  ctx: RunnerContext,
  request: SessionRequest,
  config: AgentSessionConfig,
  run: () => Promise<AgentResult>,
): Promise<AgentResult> {
  const ttlMs = effectiveCacheTtl(ctx.runSettings, request.definition, request.depth);
  // A resumed session continues its own conversation: not a request another run could share.
  if (ttlMs === 0 || ctx.cache === undefined || config.resumeFrom !== undefined) return run();
  const meta = sessionEventMeta(config);
  const log: CacheLog = (severity, message) =>
    request.scope.log(
      { severity, direction: 'response', type: 'llm', remoteIdentifier: 'agent:cache', message },
      meta,
    );
  const responses = ctx.cache.responses;
  if (responses === undefined) {
    if (ctx.cache.warning !== undefined) log('WRN', ctx.cache.warning);
    return run();
  }
  const key = cacheKey({
    v: 1,
    agent: agentHash(ctx.tree, ctx.config, request.definition),
    models: (ctx.tree.models.get(request.definition.path) ?? []).map((ref) => ref.spec),
    session: determining(config),
  });
  const startedAt = Date.now();
  try {
    const hit = await responses.get<unknown>(key);
    if (hit !== undefined && isCachedResponse(hit.value)) {
      return replayCachedResponse(config, hit.value, {
        hit: {
          kind: 'response',
          key: key.slice(0, 16),
          backend: ctx.cache.backend,
          ageMs: hit.ageMs,
          expiresInMs: hit.expiresInMs,
        },
        startedAt,
        endedAt: Date.now(),
      });
    }
  } catch (error) {
    log('WRN', `response cache lookup failed, running the agent: ${errorMessage(error)}`);
  }
  const result = await run();
  const cacheable = cacheableResponse(result, meta.agentPath);
  if (cacheable !== undefined) await storeResponse(responses, ctx.cache.backend, key, cacheable, ttlMs, log);
  return result;
}

type CacheLog = (severity: 'VRB' | 'WRN', message: string) => void;

/** Stores the response for `ttlMs` and logs what became of it (a store that fails is a warning). */
async function storeResponse(
  responses: Cache,
  backend: string,
  key: string,
  response: CachedResponse,
  ttlMs: number,
  log: CacheLog,
): Promise<void> {
  try {
    const stored = await responses.set(key, response, ttlMs);
    log(
      'VRB',
      stored.stored
        ? `response cached for ${formatTtl(ttlMs)} (${backend}, key ${key.slice(0, 16)})`
        : `response not cached: ${stored.detail}`,
    );
  } catch (error) {
    log('WRN', `response cache store failed: ${errorMessage(error)}`);
  }
}

/**
 * What in a session's config determines its answer: everything but the tools' objects (they are
 * in the agent hash), the listener, the signal, ids, where its events go, and the durable run's
 * hooks (`onCheckpoint`, `onJournal`, `approver`: functions, and no part of the question).
 */
function determining(config: AgentSessionConfig): unknown {
  const {
    models: _models,
    tools: _tools,
    toolOutput: _toolOutput,
    onEvent: _onEvent,
    signal: _signal,
    sessionId: _sessionId,
    parentAgentPath: _parentAgentPath,
    isMaster: _isMaster,
    headendId: _headendId,
    internal: _internal,
    onCheckpoint: _onCheckpoint,
    onJournal: _onJournal,
    approver: _approver,
    ...rest
  } = config;
  return rest;
}

/** An entry this version wrote (another version's, or a damaged one, is a miss and is overwritten). */
function isCachedResponse(value: unknown): value is CachedResponse {
  if (
    !isRecord(value) ||
    value.v !== 1 ||
    typeof value.provider !== 'string' ||
    typeof value.model !== 'string'
  ) {
    return false;
  }
  const report = value.report;
  return isRecord(report) && report.status === 'success' && typeof report.format === 'string';
}

/** The entry to store: only a report the model declared a success, from a run that succeeded. */
function cacheableResponse(result: AgentResult, agentPath: string): CachedResponse | undefined {
  if (!result.success) return undefined;
  const report = result.finalReport;
  if (report.status !== 'success' || report.origin === 'synthetic' || report.origin === 'adopted-text') {
    return undefined;
  }
  const answered = result.accounting.findLast(
    (entry) => entry.type === 'llm' && entry.status === 'ok' && entry.agentPath === agentPath,
  );
  if (answered?.type !== 'llm') return undefined;
  return { v: 1, report, provider: answered.provider, model: answered.model };
}
