import { randomUUID } from 'node:crypto';
import {
  AgentError,
  type AgentEventMeta,
  type AgentResult,
  type ExpectedOutput,
  type SessionNode,
} from '@agent/protocol';
import { errorMessage } from '@agent/protocol/util';
import type { AgentDefinition, FileRef } from '../agent-file/definition.js';
import type { RunnerContext } from '../session-run/session-request.js';
import { advisoryBlock, reportBody, sourceName } from './blocks.js';
import type { ChainRequest, RunChain } from './chain-request.js';
import { DEFAULT_ADVISOR_TIMEOUT_MS } from './frontmatter.js';

/** Longest failure reason quoted in an advisory block. */
const MAX_REASON_CHARS = 300;

export interface AdviceOutcome {
  /** One `<advisory>` block per advisor, in the order the file lists them. */
  blocks: string[];
  /** The op trees of the advisors that ran. */
  trees: SessionNode[];
}

/** The advisor's own json contract, else text for another agent (as for a sub-agent). */
function advisorOutput(advisor: AgentDefinition): ExpectedOutput {
  const own = advisor.output;
  if (own.format !== 'json') return { format: 'sub-agent' };
  return own.schema === undefined ? { format: 'json' } : { format: 'json', schema: own.schema };
}

function clip(text: string): string {
  return text.length <= MAX_REASON_CHARS ? text : `${text.slice(0, MAX_REASON_CHARS)}…`;
}

/**
 * Runs the advisors of `caller` in parallel on the user's prompt, each bounded by
 * `advisorTimeout`, and returns their reports as `<advisory>` blocks. An advisor that fails or
 * times out gives a block that says so; nothing here fails the caller's run.
 */
export async function runAdvisors(
  ctx: RunnerContext,
  caller: ChainRequest,
  callerPath: string,
  run: RunChain,
): Promise<AdviceOutcome> {
  const orchestration = caller.definition.orchestration;
  const refs = orchestration?.advisors ?? [];
  const timeoutMs = orchestration?.advisorTimeout ?? DEFAULT_ADVISOR_TIMEOUT_MS;
  const outcomes = await Promise.all(refs.map((ref) => runOne(ctx, caller, callerPath, ref, timeoutMs, run)));
  return {
    blocks: outcomes.map((o) => o.block),
    trees: outcomes.flatMap((o) => (o.tree === undefined ? [] : [o.tree])),
  };
}

async function runOne(
  ctx: RunnerContext,
  caller: ChainRequest,
  callerPath: string,
  ref: FileRef,
  timeoutMs: number,
  run: RunChain,
): Promise<{ block: string; tree?: SessionNode }> {
  const advisor = ctx.tree.agents.get(ref.path);
  const source = sourceName(ref.spec);
  if (advisor === undefined) return { block: advisoryBlock(source, '(advisor failed: it was not loaded)') };
  const name = `advisor:${advisor.toolName}`;
  const sessionId = randomUUID();
  const meta: AgentEventMeta = {
    isMaster: false,
    isFinal: false,
    sessionId,
    agentPath: `${callerPath}.${name}`,
    ...(caller.headendId === undefined ? {} : { headendId: caller.headendId }),
  };
  const log = (severity: 'VRB' | 'WRN', message: string) =>
    caller.scope.log(
      { severity, direction: 'response', type: 'llm', remoteIdentifier: 'agent:advisor', message },
      meta,
    );
  const timer = new AbortController();
  const timeout = setTimeout(
    () => timer.abort(new AgentError('timeout', `advisor ${source} timed out after ${timeoutMs} ms`)),
    timeoutMs,
  );
  const signal = caller.signal === undefined ? timer.signal : AbortSignal.any([caller.signal, timer.signal]);
  log('VRB', `advisor ${source} starts`);
  let result: AgentResult | undefined;
  let failure: string | undefined;
  try {
    result = await ctx.limiter.run(caller.depth + 1, signal, () =>
      run(advisorRequest(caller, callerPath, advisor, { name, sessionId, signal })),
    );
  } catch (error) {
    // A slot wait that was cancelled, or a bug: either way this advisor gives no advice.
    failure = errorMessage(error);
  } finally {
    clearTimeout(timeout);
  }
  if (timer.signal.aborted) failure = `timed out after ${timeoutMs} ms`;
  const advice = adviceText(result, failure);
  log(advice.ok ? 'VRB' : 'WRN', advice.log(source));
  const tree = result?.opTree;
  return { block: advisoryBlock(source, advice.text), ...(tree === undefined ? {} : { tree }) };
}

/** The advisor's run: the caller's prompt, trace and scope, at the next depth, as a sub-agent that is not the master. */
function advisorRequest(
  caller: ChainRequest,
  callerPath: string,
  advisor: AgentDefinition,
  session: { name: string; sessionId: string; signal: AbortSignal },
): ChainRequest {
  return {
    definition: advisor,
    prompt: caller.prompt,
    expectedOutput: advisorOutput(advisor),
    depth: caller.depth + 1,
    parentAgentPath: callerPath,
    name: session.name,
    isMaster: false,
    sessionId: session.sessionId,
    signal: session.signal,
    ...(caller.stopSignal === undefined ? {} : { stopSignal: caller.stopSignal }),
    ...(caller.headendId === undefined ? {} : { headendId: caller.headendId }),
    trace: caller.trace,
    scope: caller.scope,
  };
}

/** What an advisor's block says, and the log line about it. */
function adviceText(
  result: AgentResult | undefined,
  thrown: string | undefined,
): { ok: boolean; text: string; log: (source: string) => string } {
  if (thrown === undefined && result?.success === true) {
    const report = result.finalReport;
    const body = reportBody(report);
    const text =
      report.status === 'success' ? body : `[the advisor reported status ${report.status}]\n${body}`;
    return { ok: true, text, log: (source) => `advisor ${source} answered (${body.length} characters)` };
  }
  const why =
    thrown ?? (result === undefined || result.success ? 'no report' : `${result.exitCode}: ${result.error}`);
  const reason = clip(why);
  return {
    ok: false,
    text: `(advisor failed: ${reason}; answer without its advice)`,
    log: (source) => `advisor ${source} failed (${reason}); the run goes on without its advice`,
  };
}
