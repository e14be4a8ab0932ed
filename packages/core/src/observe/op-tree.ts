import {
  type AccountingEntry,
  emptyTotals,
  type OpKind,
  type OpNode,
  type OpTotals,
  type SessionNode,
} from '@agent/protocol';
import { appendHeld } from './held-list.js';

/**
 * A running session's totals: all zero until `finish` sums the tree, so every running root
 * shares this one (read-only) instead of keeping an object of its own.
 */
const RUNNING_TOTALS: OpTotals = Object.freeze(emptyTotals());

/** Builds the session's op tree as operations start and end; totals are summed once, at the end. */
export class OpTreeBuilder {
  readonly root: SessionNode;
  private nextId = 1;

  constructor(
    sessionId: string,
    label: string,
    private readonly now: () => number,
    resumed?: SessionNode,
  ) {
    if (resumed !== undefined) {
      // A resumed session grows the tree its snapshot holds; ids go on from the highest.
      this.root = resumed;
      this.root.status = 'running';
      delete this.root.endedAt;
      this.nextId = highestId(resumed) + 1;
      return;
    }
    this.root = {
      id: 'op-0',
      kind: 'session',
      label,
      sessionId,
      startedAt: now(),
      status: 'running',
      children: [],
      totals: RUNNING_TOTALS,
    };
  }

  begin(parent: OpNode, kind: Exclude<OpKind, 'session'>, label: string): OpNode {
    const node: OpNode = {
      id: `op-${this.nextId++}`,
      kind,
      label,
      startedAt: this.now(),
      status: 'running',
      children: [],
    };
    // Most nodes get one child or a few: no room reserved for 17.
    parent.children = appendHeld(parent.children, node);
    return node;
  }

  /** The optional parts come as arguments, not in an object: every call and attempt ends here. */
  end(
    node: OpNode,
    status: 'ok' | 'failed',
    accounting?: AccountingEntry,
    error?: string,
    structuredOutput?: unknown,
  ): void {
    node.endedAt = this.now();
    node.status = status;
    if (error !== undefined) node.error = error;
    if (accounting !== undefined) node.accounting = accounting;
    if (structuredOutput !== undefined) node.structuredOutput = structuredOutput;
  }

  /** Closes the root and computes totals over the whole tree (sub-agent trees included). */
  finish(status: 'ok' | 'failed', error?: string): SessionNode {
    this.end(this.root, status, undefined, error);
    this.root.totals = computeTotals(this.root);
    return this.root;
  }
}

export function computeTotals(root: OpNode): OpTotals {
  const totals = emptyTotals();
  const stack: OpNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const entry = node.accounting;
    if (entry?.type === 'llm') {
      totals.llmCalls++;
      totals.inputTokens += entry.tokens.inputTokens;
      totals.outputTokens += entry.tokens.outputTokens;
      totals.cachedTokens += entry.tokens.cachedTokens ?? 0;
      totals.costUsd += entry.costUsd ?? 0;
    } else if (entry?.type === 'tool') {
      totals.toolCalls++;
    }
    for (const child of node.children) stack.push(child);
  }
  totals.durationMs = (root.endedAt ?? Date.now()) - root.startedAt;
  return totals;
}

function highestId(root: OpNode): number {
  let highest = 0;
  const stack: OpNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const n = Number(node.id.slice(node.id.indexOf('-') + 1));
    if (Number.isInteger(n) && n > highest) highest = n;
    for (const child of node.children) stack.push(child);
  }
  return highest;
}
