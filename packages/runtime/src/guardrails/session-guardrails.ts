import type { AgentSessionConfig } from '@agent/core';
import type { AgentResult, Guardrail } from '@agent/protocol';
import type { RunnerContext, SessionRequest } from '../session-run/session-request.js';
import { childSessionRequest } from '../session-run/session-tool-list.js';
import { builtinGuardrail } from './builtin.js';
import type { GuardrailConfig } from './config.js';
import { judgeOutput, modelJudgeGuardrail, type RunJudge } from './model-judge.js';

export interface SessionGuardrailOptions {
  /** The session's agent path (its judges run under it). */
  agentPath: string;
  /** Runs a child session, as sub-agents are run. */
  runChild: (ctx: RunnerContext, request: SessionRequest) => Promise<AgentResult>;
}

/**
 * The session config's `guardrails` and `toolPolicy` from the agent file: nothing when it has
 * none (the core then does no guardrail work at all).
 */
export function sessionGuardrails(
  ctx: RunnerContext,
  request: SessionRequest,
  options: SessionGuardrailOptions,
): Pick<AgentSessionConfig, 'guardrails' | 'toolPolicy'> {
  const { guardrails: configs = [], toolPolicy } = request.definition;
  const guardrails = configs.map((config) => buildGuardrail(ctx, request, options, config));
  return {
    ...(guardrails.length === 0 ? {} : { guardrails }),
    ...(toolPolicy === undefined ? {} : { toolPolicy }),
  };
}

function buildGuardrail(
  ctx: RunnerContext,
  request: SessionRequest,
  options: SessionGuardrailOptions,
  config: GuardrailConfig,
): Guardrail {
  if (config.kind !== 'model') return builtinGuardrail(config);
  const { agent, kind: _kind, line: _line, ...common } = config;
  const judge = ctx.tree.agents.get(agent.path);
  // The tree loads every judge (agentEdges) and refuses a missing one: this cannot be undefined.
  if (judge === undefined)
    throw new Error(`guardrail ${config.name}: its judge ${agent.spec} was not loaded`);
  const run: RunJudge = async (prompt, signal) => {
    const depth = request.depth + 1;
    const events = request.scope.heldAccountingListener();
    const result = await ctx.limiter.run(depth, signal, () =>
      options.runChild(ctx, {
        ...childSessionRequest(request, {
          child: judge,
          prompt,
          expectedOutput: judgeOutput(judge),
          reportBack: true,
          depth,
          parentAgentPath: options.agentPath,
          signal,
        }),
        name: `guardrail:${config.name}`,
        isMaster: false,
        onEvent: events.listener,
      }),
    );
    // A verdict carries the accounting of a judge that answered; a failed one's is the run's.
    return { result: request.scope.keepConversation(result), unclaimed: events.release };
  };
  return modelJudgeGuardrail(common, judge, run);
}
