import type { CompactionRun, OpPayload, RecordNode, SessionRecord } from '@agent/protocol';

/** Characters of a payload shown before it is folded (without `--full`). */
export const FOLD_CHARACTERS = 160;

interface Sums {
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  costUsd: number;
  llmCalls: number;
  toolCalls: number;
}

function emptySums(): Sums {
  return { inputTokens: 0, outputTokens: 0, cachedTokens: 0, costUsd: 0, llmCalls: 0, toolCalls: 0 };
}

/**
 * Tokens, cost and calls of every node and everything below it (sub-agents included), each node
 * added once: a post-order walk with its own stack, so neither a wide nor a deep tree overflows.
 */
export function sumTree(root: RecordNode): Map<RecordNode, Sums> {
  const sums = new Map<RecordNode, Sums>();
  const order: RecordNode[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const current = stack.pop()!;
    order.push(current);
    for (const child of current.children) stack.push(child);
  }
  // Children come after their parent in `order`: walking it backwards sees every child first.
  for (let i = order.length - 1; i >= 0; i--) {
    const node = order[i]!;
    const own = emptySums();
    const entry = node.accounting;
    if (entry?.type === 'llm') {
      own.llmCalls = 1;
      own.inputTokens = entry.tokens.inputTokens;
      own.outputTokens = entry.tokens.outputTokens;
      own.cachedTokens = entry.tokens.cachedTokens ?? 0;
      own.costUsd = entry.costUsd ?? 0;
    } else if (entry?.type === 'tool') own.toolCalls = 1;
    for (const child of node.children) {
      const below = sums.get(child)!;
      own.inputTokens += below.inputTokens;
      own.outputTokens += below.outputTokens;
      own.cachedTokens += below.cachedTokens;
      own.costUsd += below.costUsd;
      own.llmCalls += below.llmCalls;
      own.toolCalls += below.toolCalls;
    }
    sums.set(node, own);
  }
  return sums;
}

export function formatDuration(ms: number | undefined): string {
  if (ms === undefined) return '?';
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(2)}s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s`;
}

export function formatCost(usd: number): string {
  return `$${usd.toFixed(6)}`;
}

function nodeTitle(node: RecordNode, sums: Sums): string {
  // Turn labels already say `turn N`.
  const name = node.label.startsWith(`${node.kind} `) ? node.label : `${node.kind} ${node.label}`;
  const parts = [name, node.status];
  if (node.cached === true) parts.push('cached');
  parts.push(formatDuration(node.endedAt === undefined ? undefined : node.endedAt - node.startedAt));
  // Tool, guardrail and compaction nodes show tokens only when a model ran below them (a sub-agent, a judge, a summary).
  if (
    (node.kind !== 'tool' && node.kind !== 'guardrail' && node.kind !== 'compaction') ||
    sums.llmCalls > 0
  ) {
    parts.push(`${sums.inputTokens} in / ${sums.outputTokens} out tokens`, formatCost(sums.costUsd));
  }
  if (node.kind === 'session' && node.sessionId !== undefined) parts.push(`session ${node.sessionId}`);
  if (node.error !== undefined) parts.push(`error: ${node.error}`);
  return parts.join('  ');
}

/** A payload text: whole (`full`), or its first characters on one line and how much was folded. */
function payloadText(text: string, full: boolean): string[] {
  if (full) return text.split('\n');
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= FOLD_CHARACTERS) return [flat];
  return [`${flat.slice(0, FOLD_CHARACTERS)}… (${text.length} characters, --full to show all)`];
}

function payloadLines(payload: OpPayload, full: boolean): string[] {
  const lines: string[] = [];
  if (payload.requestMessages !== undefined)
    lines.push(`request: ${payload.requestMessages} messages, ${payload.requestCharacters ?? 0} characters`);
  const texts: [string, string | undefined][] = [
    ['response', payload.response],
    ['arguments', payload.arguments],
    ['result', payload.result],
  ];
  for (const [name, text] of texts) {
    if (text === undefined || text === '') continue;
    const [first, ...rest] = payloadText(text, full);
    lines.push(`${name}: ${first}`, ...rest.map((line) => `  ${line}`));
  }
  return lines;
}

/**
 * A compaction: the turns it replaced and the tokens of the next request before and after, the
 * handle the transcript is behind (`tool_output` expands it) and the summary; or why it failed.
 */
function compactionLines(run: CompactionRun, full: boolean): string[] {
  const calls = `${run.calls} summary call${run.calls === 1 ? '' : 's'}`;
  if (run.outcome === 'failed') {
    const off = run.exhausted === true ? ' (compaction off for the rest of the session)' : '';
    return [`compaction failed after ${calls}: ${run.error ?? 'no reason given'}${off}`];
  }
  const lines = [
    `compaction: turns ${run.fromTurn}-${run.toTurn} (${run.messages} messages) replaced by a summary: ${run.beforeTokens} -> ${run.afterTokens} tokens (limit ${run.limitTokens}), ${calls}`,
    `handle: ${run.handle ?? '?'}`,
  ];
  if (run.summary !== undefined) {
    const [first, ...rest] = payloadText(run.summary, full);
    lines.push(`summary: ${first}`, ...rest.map((line) => `  ${line}`));
  }
  return lines;
}

/**
 * What decided at a node: a guardrail's outcome (phase, tool call, reason, whether it failed
 * open), a tool call's policy decision (the rule that matched) and a compaction's outcome.
 * Reasons name rules, never the text a check matched.
 */
function decisionLines(node: RecordNode, full: boolean): string[] {
  const lines: string[] = [];
  const run = node.guardrail;
  if (run !== undefined) {
    const where =
      run.callId === undefined ? run.phase : `${run.phase} of ${run.tool ?? 'call'} ${run.callId}`;
    const open = run.failedOpen === true ? ' (failed open)' : '';
    const why = run.reason === undefined ? '' : `: ${run.reason}`;
    lines.push(`guardrail ${run.on} ${where}: ${run.outcome}${open}${why}`);
  }
  const policy = node.policy;
  if (policy !== undefined) {
    const why = policy.reason === undefined ? '' : `: ${policy.reason}`;
    lines.push(`policy: ${policy.decision} by ${policy.ruleName}${why}`);
  }
  if (node.compaction !== undefined) lines.push(...compactionLines(node.compaction, full));
  return lines;
}

/** The tree below the root, one line per node and its payload lines, walked with its own stack. */
function renderChildren(root: RecordNode, sums: Map<RecordNode, Sums>, full: boolean, out: string[]): void {
  const stack: { node: RecordNode; prefix: string; last: boolean }[] = [];
  const pushChildren = (node: RecordNode, prefix: string) => {
    for (let i = node.children.length - 1; i >= 0; i--)
      stack.push({ node: node.children[i]!, prefix, last: i === node.children.length - 1 });
  };
  pushChildren(root, '');
  while (stack.length > 0) {
    const { node, prefix, last } = stack.pop()!;
    out.push(`${prefix}${last ? '└─ ' : '├─ '}${nodeTitle(node, sums.get(node)!)}`);
    const inner = `${prefix}${last ? '   ' : '│  '}`;
    const below = node.children.length > 0 ? '│    ' : '     ';
    for (const line of decisionLines(node, full)) out.push(`${inner}${below}${line}`);
    if (node.payload !== undefined)
      for (const line of payloadLines(node.payload, full)) out.push(`${inner}${below}${line}`);
    pushChildren(node, inner);
  }
}

/** The record as a tree for the terminal: totals first, then every node with its figures. */
export function renderSessionRecord(record: SessionRecord, options: { full: boolean }): string {
  const sumsByNode = sumTree(record.tree);
  const sums = sumsByNode.get(record.tree)!;
  const lines = [
    `session ${record.sessionId}  agent ${record.agent}  ${record.success ? 'ok' : 'failed'}  ${record.exitCode}`,
    `started ${new Date(record.startedAt).toISOString()}  duration ${formatDuration(record.durationMs)}`,
    `totals: ${sums.llmCalls} LLM calls, ${sums.toolCalls} tool calls, ${sums.inputTokens} in / ${sums.outputTokens} out tokens (${sums.cachedTokens} cached), ${formatCost(sums.costUsd)}`,
  ];
  if (record.finalReport !== undefined)
    lines.push(`report: ${record.finalReport.status} (${record.finalReport.format})`);
  if (record.error !== undefined) lines.push(`error: ${record.error}`);
  if (record.payloadsDropped !== undefined) lines.push(`note: ${record.payloadsDropped}`);
  lines.push('');
  const out: string[] = [nodeTitle(record.tree, sums)];
  renderChildren(record.tree, sumsByNode, options.full, out);
  return `${[...lines, ...out].join('\n')}\n`;
}
