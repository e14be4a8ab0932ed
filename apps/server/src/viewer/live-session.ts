import {
  type AccountingEntry,
  type AgentEvent,
  type AgentEventMeta,
  type AgentResult,
  type CompactionRun,
  emptyTotals,
  type GuardrailRun,
  type LlmAccountingEntry,
  type OpTotals,
  type ProgressEvent,
  type ToolPolicyVerdict,
} from '@agent/protocol';
import {
  compactionFields,
  type FOLD_CHARS,
  fold,
  foldJson,
  foldReport,
  guardrailFields,
  llmCallFields,
  policyField,
  type SessionView,
  type ViewNode,
} from './view-model.js';

export interface LiveSessionLimits {
  /** Nodes kept per session (sub-agents included); later ones are counted in `droppedNodes`. */
  maxNodes: number;
  /** Characters kept of one argument, result or report (`FOLD_CHARS` by default). */
  foldChars: typeof FOLD_CHARS | number;
}

/** Where one (sub-)session of the run is in the tree, and what it is doing now. */
interface SessionCursor {
  node: ViewNode;
  turn?: ViewNode;
  llm?: ViewNode;
  tools: Map<string, ViewNode>;
  /** Summary calls of the compaction under way: accounted before its `compaction` event comes. */
  summaryCalls?: LlmAccountingEntry[];
}

/**
 * One run served by a face, built from its events as they come: turns, LLM calls (from the
 * `turn_started` that starts them and the `accounting` entry that ends them), tool calls
 * (`tool_started` / `tool_finished` progress, the `tool_policy` decision), guardrail runs
 * (`guardrail` events, under the turn they ran in), compactions (`compaction` events, under the
 * session between two turns, their summary calls below), sub-agents under the tool call that ran them.
 */
export class LiveSession {
  readonly view: SessionView;
  private readonly cursors = new Map<string, SessionCursor>();
  private nodes = 1;
  private nextId = 1;

  constructor(
    id: string,
    agent: string,
    headend: string | undefined,
    private readonly limits: LiveSessionLimits,
    now = Date.now(),
  ) {
    const tree: ViewNode = {
      id: 'n0',
      kind: 'session',
      label: agent,
      startedAt: now,
      status: 'running',
      children: [],
    };
    this.view = {
      id,
      agent,
      ...(headend === undefined ? {} : { headend }),
      status: 'running',
      startedAt: now,
      totals: emptyTotals(),
      tree,
      droppedNodes: 0,
    };
  }

  /** Applies one event of the run (the top session's or a sub-agent's). */
  apply(event: AgentEvent, meta: AgentEventMeta, now = Date.now()): void {
    const cursor = this.cursor(meta, now);
    if (cursor === undefined) return;
    switch (event.type) {
      case 'turn_started':
        this.turnStarted(cursor, event.turn, event.isRetry, now);
        break;
      case 'accounting':
        this.accounting(cursor, event.entry, now);
        break;
      case 'progress':
        this.progress(cursor, event.event, now);
        break;
      case 'guardrail':
        this.guardrailRun(cursor, event.run, now);
        break;
      case 'tool_policy':
        this.toolPolicy(cursor, event.verdict, now);
        break;
      case 'compaction':
        this.compaction(cursor, event.run, now);
        break;
      case 'final_report':
        if (meta.isMaster && meta.isFinal) this.view.report = foldReport(event.report, this.limits.foldChars);
        break;
      case 'op_tree':
        if (cursor.node === this.view.tree) this.view.totals = { ...event.tree.totals };
        break;
      default:
        break;
    }
    this.refreshTotals(now);
  }

  /** The run ended: its status, report, totals, and the tool results from the conversation. */
  finish(result: AgentResult | undefined, error: string | undefined, now = Date.now()): void {
    const failed = result === undefined ? true : !result.success;
    this.view.status = failed ? 'failed' : 'ok';
    this.view.endedAt = now;
    if (result !== undefined) this.view.exitCode = result.exitCode;
    const reason = error ?? (result !== undefined && !result.success ? result.error : undefined);
    if (reason !== undefined) this.view.error = fold(reason, this.limits.foldChars);
    if (result?.finalReport !== undefined)
      this.view.report = foldReport(result.finalReport, this.limits.foldChars);
    if (this.view.report !== undefined) this.view.reportStatus = this.view.report.status;
    for (const message of result?.conversation ?? []) {
      if (message.role !== 'tool') continue;
      for (const cursor of this.cursors.values()) {
        const node = cursor.tools.get(message.toolCallId);
        if (node !== undefined) node.result = fold(message.content, this.limits.foldChars);
      }
    }
    closeRunning(this.view.tree, failed ? 'failed' : 'ok', now);
    const totals = result?.opTree?.totals ?? sumTree(this.view.tree);
    this.view.totals = { ...totals, durationMs: now - this.view.startedAt };
  }

  private cursor(meta: AgentEventMeta, now: number): SessionCursor | undefined {
    const known = this.cursors.get(meta.sessionId);
    if (known !== undefined) return known;
    if (this.cursors.size === 0) {
      const root: SessionCursor = { node: this.view.tree, tools: new Map() };
      this.view.tree.label = meta.agentPath || this.view.agent;
      this.view.tree.sessionId = meta.sessionId;
      this.view.sessionId = meta.sessionId;
      this.cursors.set(meta.sessionId, root);
      return root;
    }
    // A sub-agent: under the running tool call of the session one level up (or that session).
    const parentPath = meta.agentPath.split('.').slice(0, -1).join('.');
    const parent = [...this.cursors.values()].reverse().find((c) => c.node.label === parentPath);
    const under = parent === undefined ? this.view.tree : (runningTool(parent) ?? parent.turn ?? parent.node);
    const node = this.add(under, { kind: 'session', label: meta.agentPath, sessionId: meta.sessionId }, now);
    if (node === undefined) return undefined;
    const cursor: SessionCursor = { node, tools: new Map() };
    this.cursors.set(meta.sessionId, cursor);
    return cursor;
  }

  private turnStarted(cursor: SessionCursor, turn: number, isRetry: boolean, now: number): void {
    if (cursor.turn === undefined || !isRetry) {
      if (cursor.turn !== undefined) closeRunning(cursor.turn, 'ok', now);
      cursor.turn = this.add(cursor.node, { kind: 'turn', label: `turn ${turn}` }, now);
    }
    if (cursor.turn === undefined) return;
    cursor.llm = this.add(cursor.turn, { kind: 'llm', label: 'model call' }, now);
  }

  private accounting(cursor: SessionCursor, entry: AccountingEntry, now: number): void {
    if (entry.type === 'llm' && entry.purpose === 'compaction') {
      cursor.summaryCalls = [...(cursor.summaryCalls ?? []), entry];
      return;
    }
    if (entry.type === 'llm') {
      const node =
        cursor.llm ?? this.add(cursor.turn ?? cursor.node, { kind: 'llm', label: 'model call' }, now);
      cursor.llm = undefined;
      if (node === undefined) return;
      Object.assign(node, llmNodeFields(entry));
      return;
    }
    if (entry.type !== 'tool') return;
    const node = [...cursor.tools.values()]
      .reverse()
      .find((tool) => tool.label === entry.command && tool.latencyMs === undefined);
    if (node === undefined) return;
    node.latencyMs = entry.latency;
    if (entry.status === 'failed') {
      node.status = 'failed';
      if (entry.error !== undefined) node.error = fold(entry.error, 500);
    }
  }

  /** A guardrail run as a node of its own under the turn (input guardrails: before turn 1 starts). */
  private guardrailRun(cursor: SessionCursor, run: GuardrailRun, now: number): void {
    const fields = guardrailFields(run);
    this.add(
      cursor.turn ?? cursor.node,
      {
        kind: 'guardrail',
        label: run.name,
        ...fields,
        startedAt: now - run.latencyMs,
        endedAt: now,
        ...(run.callId === undefined ? {} : { callId: run.callId }),
        ...(fields.status === 'failed' && run.reason !== undefined ? { error: fold(run.reason, 500) } : {}),
      },
      now,
    );
  }

  /** A compaction as a node under the session (after the turn it followed), its summary calls below it. */
  private compaction(cursor: SessionCursor, run: CompactionRun, now: number): void {
    const startedAt = now - run.durationMs;
    if (cursor.turn !== undefined) closeRunning(cursor.turn, 'ok', startedAt);
    const node = this.add(
      cursor.node,
      {
        kind: 'compaction',
        label: `compaction ${run.index}`,
        ...compactionFields(run, this.limits.foldChars),
        startedAt,
        endedAt: now,
      },
      now,
    );
    for (const entry of cursor.summaryCalls ?? []) {
      if (node === undefined) break;
      this.add(node, { kind: 'llm', ...llmNodeFields(entry) }, now);
    }
    cursor.summaryCalls = undefined;
  }

  /**
   * The policy's decision for a call, on its tool node: made before the call starts, so the node
   * is made here and `tool_started` finds it; a denied call never starts, its node ends here.
   */
  private toolPolicy(cursor: SessionCursor, verdict: ToolPolicyVerdict, now: number): void {
    const known = cursor.tools.get(verdict.callId);
    const node =
      known ??
      this.add(
        cursor.turn ?? cursor.node,
        { kind: 'tool', label: verdict.tool, callId: verdict.callId },
        now,
      );
    if (node === undefined) return;
    node.policy = policyField(verdict);
    cursor.tools.set(verdict.callId, node);
    if (verdict.decision === 'deny') {
      node.status = 'failed';
      node.endedAt = now;
      node.error = fold(
        `denied by policy rule ${verdict.ruleName}${verdict.reason === undefined ? '' : `: ${verdict.reason}`}`,
        500,
      );
    }
  }

  private progress(cursor: SessionCursor, event: ProgressEvent, now: number): void {
    const decided = event.type === 'tool_started' ? cursor.tools.get(event.callId) : undefined;
    if (decided !== undefined && decided.endedAt === undefined && decided.arguments === undefined) {
      // The call the policy decided a moment ago: the same node, now with its arguments.
      if (event.type === 'tool_started' && event.arguments !== undefined)
        decided.arguments = foldJson(event.arguments, this.limits.foldChars);
    } else if (event.type === 'tool_started') {
      const node = this.add(
        cursor.turn ?? cursor.node,
        {
          kind: 'tool',
          label: event.tool,
          callId: event.callId,
          ...(event.arguments === undefined
            ? {}
            : { arguments: foldJson(event.arguments, this.limits.foldChars) }),
        },
        now,
      );
      if (node !== undefined) cursor.tools.set(event.callId, node);
    } else if (event.type === 'tool_finished') {
      const node = cursor.tools.get(event.callId);
      if (node === undefined) return;
      node.endedAt = now;
      const failed = event.message?.startsWith('(tool failed') === true;
      node.status = failed ? 'failed' : node.status === 'failed' ? 'failed' : 'ok';
      if (failed && event.message !== undefined) node.error = fold(event.message, 500);
      if (event.structuredOutput !== undefined)
        node.result = foldJson(event.structuredOutput, this.limits.foldChars);
      closeRunning(node, 'ok', now);
    }
  }

  private add(
    parent: ViewNode,
    fields: Pick<ViewNode, 'kind' | 'label'> & Partial<ViewNode>,
    now: number,
  ): ViewNode | undefined {
    if (this.nodes >= this.limits.maxNodes) {
      this.view.droppedNodes++;
      return undefined;
    }
    this.nodes++;
    const node: ViewNode = {
      id: `n${this.nextId++}`,
      startedAt: now,
      status: 'running',
      children: [],
      ...fields,
    };
    parent.children.push(node);
    return node;
  }

  /** Totals so far from the tree (the final op tree's totals replace them at the end). */
  private refreshTotals(now: number): void {
    if (this.view.status !== 'running') return;
    const totals = sumTree(this.view.tree);
    totals.durationMs = now - this.view.startedAt;
    this.view.totals = totals;
  }
}

/** An ended LLM call's node: its model, tokens, cost, times, status and error. */
function llmNodeFields(entry: LlmAccountingEntry): Pick<ViewNode, 'label' | 'status'> & Partial<ViewNode> {
  return {
    label: `${entry.provider}:${entry.model}`,
    ...llmCallFields(entry),
    startedAt: entry.timestamp - entry.latency,
    endedAt: entry.timestamp,
    status: entry.status,
    ...(entry.error === undefined ? {} : { error: fold(entry.error, 500) }),
  };
}

function runningTool(cursor: SessionCursor): ViewNode | undefined {
  return [...cursor.tools.values()].reverse().find((tool) => tool.status === 'running');
}

function closeRunning(node: ViewNode, status: 'ok' | 'failed', now: number): void {
  if (node.status === 'running') {
    node.status = status;
    node.endedAt = now;
  }
  for (const child of node.children) closeRunning(child, status, now);
}

function sumTree(root: ViewNode): OpTotals {
  const totals: OpTotals = emptyTotals();
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop() as ViewNode;
    if (node.kind === 'llm' && node.latencyMs !== undefined) {
      totals.llmCalls++;
      totals.inputTokens += node.inputTokens ?? 0;
      totals.outputTokens += node.outputTokens ?? 0;
      totals.cachedTokens += node.cachedTokens ?? 0;
      totals.costUsd += node.costUsd ?? 0;
    } else if (node.kind === 'tool') totals.toolCalls++;
    stack.push(...node.children);
  }
  return totals;
}
