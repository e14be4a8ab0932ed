import { randomUUID } from 'node:crypto';
import { basename } from 'node:path';
import type { AgentEventMeta, AgentResult, SessionNode } from '@agent/protocol';
import type { AgentDefinition } from '../agent-file/definition.js';
import type { EventListener } from '../runner/run-scope.js';
import type { RunnerContext } from '../session-run/session-request.js';
import { runAgentSession } from '../session-run/session-runner.js';
import { runAdvisors } from './advisors.js';
import { advisoryBlock, handoffPrompt, reportBody, withAdvisories } from './blocks.js';
import type { ChainRequest } from './chain-request.js';
import { chainResult, chainTree } from './combine.js';
import { RouterToolProvider } from './router-tool.js';
import { stageListener } from './stage-events.js';

/** A stage that ran after the agent itself: its result, and how errors name it. */
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
  const plain =
    request.definition.orchestration === undefined && request.after === undefined && request.inChain !== true;
  if (plain) return runAgentSession(ctx, request);
  return new ChainRun(ctx, request).run();
}

/** One run of one agent's chain. */
class ChainRun {
  private readonly definition: AgentDefinition;
  private readonly name: string;
  private readonly agentPath: string;
  private readonly isMaster: boolean;
  private readonly sessionId: string;
  private readonly meta: AgentEventMeta;
  private readonly base: EventListener;
  private readonly startedAt = Date.now();
  private readonly trees: SessionNode[] = [];
  private readonly handoff: AgentDefinition | undefined;
  /** What takes this agent's own answer: its handoff, else its caller's. */
  private readonly next: ChainRequest['after'];
  private readonly router: RouterToolProvider | undefined;

  constructor(
    private readonly ctx: RunnerContext,
    private readonly request: ChainRequest,
  ) {
    this.definition = request.definition;
    this.name = request.name ?? this.definition.toolName;
    this.agentPath =
      request.parentAgentPath === undefined ? this.name : `${request.parentAgentPath}.${this.name}`;
    this.isMaster = request.isMaster ?? request.depth === 0;
    this.sessionId = request.sessionId ?? randomUUID();
    this.meta = {
      isMaster: this.isMaster,
      isFinal: false,
      sessionId: this.sessionId,
      agentPath: this.agentPath,
      ...(request.headendId === undefined ? {} : { headendId: request.headendId }),
    };
    this.base = request.scope.listener(this.isMaster);
    const o = this.definition.orchestration;
    this.handoff = o?.handoff === undefined ? undefined : ctx.tree.agents.get(o.handoff.path);
    this.next =
      this.handoff === undefined
        ? request.after
        : {
            count: (request.after?.count ?? 0) + 1,
            to: `${this.agentPath}.handoff:${this.handoff.toolName}`,
          };
    const destinations = (o?.router ?? []).flatMap((ref) => ctx.tree.agents.get(ref.path) ?? []);
    this.router = destinations.length === 0 ? undefined : new RouterToolProvider(destinations);
  }

  async run(): Promise<AgentResult> {
    const o = this.definition.orchestration;
    let prompt = this.request.prompt;
    if (o !== undefined && o.advisors.length > 0) {
      const advice = await runAdvisors(this.ctx, this.request, this.agentPath, (r) =>
        runAgentChain(this.ctx, r),
      );
      this.trees.push(...advice.trees);
      prompt = withAdvisories(advice.blocks, prompt);
    }
    const main = await this.runSelf(prompt);
    // Alone (a destination or handoff with nothing of its own), the session is the chain.
    if (o === undefined) return { ...main, finalAgentId: this.definition.toolName };
    if (main.opTree !== undefined) this.trees.push(main.opTree);
    const later: LaterStage[] = [];
    const choice = this.router?.choice;
    if (choice !== undefined && main.success) later.push(await this.runDestination(choice));
    const answered = later.at(-1)?.result ?? main;
    if (this.handoff !== undefined && answered.success)
      later.push(await this.runHandoff(this.handoff, answered));
    return this.finish(main, later);
  }

  /** The agent's own session: with the router's tool, and events that say what follows. */
  private runSelf(prompt: string): Promise<AgentResult> {
    const { router, next } = this;
    return runAgentSession(this.ctx, {
      ...this.request,
      prompt,
      isMaster: this.isMaster,
      sessionId: this.definition.orchestration === undefined ? this.sessionId : randomUUID(),
      ...(router === undefined ? {} : { extraTools: [router] }),
      onEvent: stageListener({
        base: this.base,
        handoffConfigured: this.handoff !== undefined,
        pendingHandoffCount: next?.count ?? 0,
        onward: () => {
          const chosen = router?.choice;
          if (chosen !== undefined) return { to: this.destinationPath(chosen.destination), via: 'router' };
          return next === undefined ? undefined : { to: next.to, via: 'handoff' };
        },
        dropOutput: () => router?.choice !== undefined,
      }),
    });
  }

  private destinationPath(destination: AgentDefinition): string {
    return `${this.agentPath}.router:${destination.toolName}`;
  }

  /** What every later stage shares: the caller's contract, the run's signals, one level down. */
  private laterStage(definition: AgentDefinition, prompt: string, name: string): ChainRequest {
    const r = this.request;
    return {
      definition,
      prompt,
      name,
      expectedOutput: r.expectedOutput,
      inChain: true,
      depth: r.depth + 1,
      parentAgentPath: this.agentPath,
      isMaster: this.isMaster,
      trace: r.trace,
      scope: r.scope,
      ...(r.signal === undefined ? {} : { signal: r.signal }),
      ...(r.stopSignal === undefined ? {} : { stopSignal: r.stopSignal }),
      ...(r.headendId === undefined ? {} : { headendId: r.headendId }),
    };
  }

  private note(remoteIdentifier: string, message: string): void {
    this.request.scope.log(
      { severity: 'VRB', direction: 'response', type: 'llm', remoteIdentifier, message },
      this.meta,
    );
  }

  /** The destination, on the user's request (and history) with the router's message before it. */
  private async runDestination(choice: {
    destination: AgentDefinition;
    message?: string;
  }): Promise<LaterStage> {
    const { destination } = choice;
    this.note('agent:router', `${this.definition.toolName} hands the request to ${destination.toolName}`);
    const message =
      choice.message === undefined ? [] : [advisoryBlock(basename(this.definition.path), choice.message)];
    const history = this.request.conversationHistory;
    const result = await runAgentChain(this.ctx, {
      ...this.laterStage(
        destination,
        withAdvisories(message, this.request.prompt),
        `router:${destination.toolName}`,
      ),
      ...(history === undefined ? {} : { conversationHistory: history }),
      ...(this.request.exchanges === undefined ? {} : { exchanges: this.request.exchanges }),
      ...(this.next === undefined ? {} : { after: this.next }),
    });
    return { result, agent: destination, label: `router destination ${destination.toolName}` };
  }

  /** The handoff, on the user's request and the answer so far. */
  private async runHandoff(
    handoff: AgentDefinition,
    answered: AgentResult & { success: true },
  ): Promise<LaterStage> {
    this.note('agent:handoff', `${this.definition.toolName} hands its answer to ${handoff.toolName}`);
    const prompt = handoffPrompt(this.request.prompt, reportBody(answered.finalReport));
    const { after } = this.request;
    const result = await runAgentChain(this.ctx, {
      ...this.laterStage(handoff, prompt, `handoff:${handoff.toolName}`),
      ...(after === undefined ? {} : { after }),
    });
    return { result, agent: handoff, label: `handoff ${handoff.toolName}` };
  }

  /** The chain's tree (sent as an `op_tree` event) and result. */
  private finish(main: AgentResult, later: readonly LaterStage[]): AgentResult {
    for (const stage of later) if (stage.result.opTree !== undefined) this.trees.push(stage.result.opTree);
    const lastStage = later.at(-1);
    const last = lastStage?.result ?? main;
    const error =
      last.success || lastStage === undefined ? undefined : `${lastStage.label} failed: ${last.error}`;
    const opTree = chainTree({
      label: this.name,
      sessionId: this.sessionId,
      startedAt: this.startedAt,
      endedAt: Date.now(),
      stages: this.trees,
      outcome: last.success ? { ok: true } : { ok: false, error: error ?? last.error },
    });
    this.base({ type: 'op_tree', tree: opTree }, this.meta);
    return chainResult(last, [main, ...later.map((stage) => stage.result)], {
      sessionId: this.sessionId,
      opTree,
      finalAgentId: last.finalAgentId ?? lastStage?.agent.toolName ?? this.definition.toolName,
      ...(error === undefined ? {} : { error }),
    });
  }
}
