import { randomUUID } from 'node:crypto';
import { basename } from 'node:path';
import type { AgentEventMeta, AgentResult, SessionNode } from '@agent/protocol';
import type { AgentDefinition } from '../agent-file/definition.js';
import { type RunnerContext, runAgentSession } from '../session-runner.js';
import { runAdvisors } from './advisors.js';
import { advisoryBlock, handoffPrompt, reportBody, withAdvisories } from './blocks.js';
import type { ChainRequest, RunChain } from './chain-request.js';
import { chainResult, chainTree } from './combine.js';
import { RouterToolProvider } from './router-tool.js';
import { stageListener } from './stage-events.js';

/** A stage that ran after the agent itself: its result, and how the run names it in errors. */
interface LaterStage {
  result: AgentResult;
  agent: AgentDefinition;
  label: string;
}

/**
 * Runs an agent with its orchestration (docs/orchestration.md): its advisors in parallel,
 * then the agent (a router when it has destinations), then the destination it chose, then its
 * handoff, each stage on the previous one's output. Without orchestration it is one session.
 * Never throws for a stage's failure: the chain stops there and the result says why.
 */
export async function runAgentChain(ctx: RunnerContext, request: ChainRequest): Promise<AgentResult> {
  const { definition, scope } = request;
  const orchestration = definition.orchestration;
  const { after } = request;
  if (orchestration === undefined && after === undefined && request.inChain !== true) {
    return runAgentSession(ctx, request);
  }
  const run: RunChain = (next) => runAgentChain(ctx, next);
  const startedAt = Date.now();
  const name = request.name ?? definition.toolName;
  const agentPath = request.parentAgentPath === undefined ? name : `${request.parentAgentPath}.${name}`;
  const isMaster = request.isMaster ?? request.depth === 0;
  const sessionId = request.sessionId ?? randomUUID();
  const meta: AgentEventMeta = {
    isMaster,
    isFinal: false,
    sessionId,
    agentPath,
    ...(request.headendId === undefined ? {} : { headendId: request.headendId }),
  };
  const base = scope.listener(isMaster);
  const trees: SessionNode[] = [];

  let prompt = request.prompt;
  if (orchestration !== undefined && orchestration.advisors.length > 0) {
    const advice = await runAdvisors(ctx, request, agentPath, run);
    trees.push(...advice.trees);
    prompt = withAdvisories(advice.blocks, prompt);
  }

  const handoff =
    orchestration?.handoff === undefined ? undefined : ctx.tree.agents.get(orchestration.handoff.path);
  const handoffPath = handoff === undefined ? undefined : `${agentPath}.handoff:${handoff.toolName}`;
  // What takes this agent's answer: its own handoff, else its caller's.
  const next = handoffPath === undefined ? after : { count: (after?.count ?? 0) + 1, to: handoffPath };
  const destinations = (orchestration?.router ?? []).flatMap((ref) => {
    const found = ctx.tree.agents.get(ref.path);
    return found === undefined ? [] : [found];
  });
  const router = destinations.length === 0 ? undefined : new RouterToolProvider(destinations);
  const destinationPath = (d: AgentDefinition) => `${agentPath}.router:${d.toolName}`;
  const simple = orchestration === undefined;

  const main = await runAgentSession(ctx, {
    ...request,
    prompt,
    isMaster,
    // Alone (a destination with nothing of its own), it is the chain: no node above it.
    sessionId: simple ? sessionId : randomUUID(),
    ...(router === undefined ? {} : { extraTools: [router] }),
    onEvent: stageListener({
      base,
      handoffConfigured: handoff !== undefined,
      pendingHandoffCount: next?.count ?? 0,
      onward: () => {
        const choice = router?.choice;
        if (choice !== undefined) return { to: destinationPath(choice.destination), via: 'router' };
        return next === undefined ? undefined : { to: next.to, via: 'handoff' };
      },
      dropOutput: () => router?.choice !== undefined,
    }),
  });
  if (simple) return { ...main, finalAgentId: definition.toolName };
  if (main.opTree !== undefined) trees.push(main.opTree);

  const later: LaterStage[] = [];
  const common = {
    expectedOutput: request.expectedOutput,
    inChain: true,
    depth: request.depth + 1,
    parentAgentPath: agentPath,
    isMaster,
    trace: request.trace,
    scope,
    ...(request.signal === undefined ? {} : { signal: request.signal }),
    ...(request.stopSignal === undefined ? {} : { stopSignal: request.stopSignal }),
    ...(request.headendId === undefined ? {} : { headendId: request.headendId }),
  };
  const note = (remoteIdentifier: string, message: string) =>
    scope.log({ severity: 'VRB', direction: 'response', type: 'llm', remoteIdentifier, message }, meta);

  const choice = router?.choice;
  if (choice !== undefined && main.success) {
    const destination = choice.destination;
    note('agent:router', `${definition.toolName} hands the request to ${destination.toolName}`);
    const message =
      choice.message === undefined ? [] : [advisoryBlock(basename(definition.path), choice.message)];
    const result = await run({
      ...common,
      definition: destination,
      prompt: withAdvisories(message, request.prompt),
      name: `router:${destination.toolName}`,
      ...(request.conversationHistory === undefined
        ? {}
        : { conversationHistory: request.conversationHistory }),
      ...(next === undefined ? {} : { after: next }),
    });
    later.push({ result, agent: destination, label: `router destination ${destination.toolName}` });
  }
  const answered = later.at(-1)?.result ?? main;
  if (handoff !== undefined && answered.success) {
    note('agent:handoff', `${definition.toolName} hands its answer to ${handoff.toolName}`);
    const result = await run({
      ...common,
      definition: handoff,
      prompt: handoffPrompt(request.prompt, reportBody(answered.finalReport)),
      name: `handoff:${handoff.toolName}`,
      ...(after === undefined ? {} : { after }),
    });
    later.push({ result, agent: handoff, label: `handoff ${handoff.toolName}` });
  }

  for (const stage of later) if (stage.result.opTree !== undefined) trees.push(stage.result.opTree);
  const lastStage = later.at(-1);
  const last = lastStage?.result ?? main;
  const error =
    last.success || lastStage === undefined ? undefined : `${lastStage.label} failed: ${last.error}`;
  const opTree = chainTree({
    label: name,
    sessionId,
    startedAt,
    endedAt: Date.now(),
    stages: trees,
    outcome: last.success ? { ok: true } : { ok: false, error: error ?? last.error },
  });
  base({ type: 'op_tree', tree: opTree }, meta);
  return chainResult(last, [main, ...later.map((stage) => stage.result)], {
    sessionId,
    opTree,
    finalAgentId: last.finalAgentId ?? lastStage?.agent.toolName ?? definition.toolName,
    ...(error === undefined ? {} : { error }),
  });
}
