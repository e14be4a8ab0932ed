import type { RecordNode, SessionRecord } from '@agent/protocol';
import type { LiveSessionLimits } from './live-session.js';
import {
  compactionFields,
  fold,
  foldJson,
  foldReport,
  guardrailFields,
  llmCallFields,
  policyField,
  type SessionView,
  type ViewNode,
} from './view-model.js';

/** Characters kept of a node's error, as for a live session's. */
const ERROR_CHARS = 500;

/**
 * A session record (`persistence.sessionsDir`) as the viewer shows a session: the record's tree
 * as view nodes (LLM calls with their accounting, tool calls with their arguments and results,
 * sub-agents under the tool call that ran them), its totals, report and error, within the same
 * bounds as a live session (`maxNodes` nodes, `foldChars` characters of a text).
 */
export function recordView(record: SessionRecord, limits: LiveSessionLimits): SessionView {
  const counter = { kept: 0, dropped: 0 };
  const tree = viewTree(record.tree, limits, counter);
  const report =
    record.finalReport === undefined ? undefined : foldReport(record.finalReport, limits.foldChars);
  return {
    id: record.sessionId,
    sessionId: record.sessionId,
    agent: record.agent,
    ...(record.headendId === undefined ? {} : { headend: record.headendId }),
    ...(record.owner === undefined ? {} : { owner: record.owner }),
    status: record.success ? 'ok' : 'failed',
    exitCode: record.exitCode,
    startedAt: record.startedAt,
    endedAt: record.endedAt,
    totals: { ...record.totals },
    ...(report === undefined ? {} : { report, reportStatus: report.status }),
    ...(record.error === undefined ? {} : { error: fold(record.error, limits.foldChars) }),
    tree,
    droppedNodes: counter.dropped,
  };
}

/**
 * The record's tree as view nodes in depth-first order, the first `maxNodes` kept and the rest
 * counted, walked with its own stack: neither a wide nor a deep tree overflows the call stack.
 */
function viewTree(
  root: RecordNode,
  limits: LiveSessionLimits,
  counter: { kept: number; dropped: number },
): ViewNode {
  const top = viewNode(root, limits);
  counter.kept++;
  const stack: { node: RecordNode; parent: ViewNode }[] = [];
  const pushChildren = (node: RecordNode, parent: ViewNode) => {
    for (let i = node.children.length - 1; i >= 0; i--) stack.push({ node: node.children[i]!, parent });
  };
  pushChildren(root, top);
  while (stack.length > 0) {
    const { node, parent } = stack.pop()!;
    if (counter.kept >= limits.maxNodes) {
      counter.dropped += size(node);
      continue;
    }
    counter.kept++;
    const view = viewNode(node, limits);
    parent.children.push(view);
    pushChildren(node, view);
  }
  return top;
}

function viewNode(node: RecordNode, limits: LiveSessionLimits): ViewNode {
  return {
    id: node.id,
    kind: node.kind,
    label: node.label,
    startedAt: node.startedAt,
    ...(node.endedAt === undefined ? {} : { endedAt: node.endedAt }),
    status: node.status,
    ...(node.error === undefined ? {} : { error: fold(node.error, ERROR_CHARS) }),
    ...(node.sessionId === undefined ? {} : { sessionId: node.sessionId }),
    ...callFields(node, limits.foldChars),
    ...(node.policy === undefined ? {} : { policy: policyField(node.policy) }),
    // The verdict; the node's status stays the record's.
    ...(node.guardrail === undefined ? {} : { guardrail: guardrailFields(node.guardrail).guardrail }),
    ...(node.compaction === undefined
      ? {}
      : { compaction: compactionFields(node.compaction, limits.foldChars).compaction }),
    children: [],
  };
}

/** An LLM call's model, tokens, cost and latency; a tool call's id, arguments, result and latency. */
function callFields(node: RecordNode, foldChars: number): Partial<ViewNode> {
  const entry = node.accounting;
  if (node.kind === 'llm' && entry?.type === 'llm') return llmCallFields(entry);
  if (node.kind !== 'tool') return {};
  const result = node.payload?.result ?? node.structuredOutput;
  return {
    ...(node.toolCallId === undefined ? {} : { callId: node.toolCallId }),
    ...(node.payload?.arguments === undefined
      ? {}
      : { arguments: foldJson(parsedOrText(node.payload.arguments), foldChars) }),
    ...(result === undefined ? {} : { result: foldJson(result, foldChars) }),
    ...(entry === undefined ? {} : { latencyMs: entry.latency }),
  };
}

/** The model's JSON arguments parsed (so they show pretty, as a live session's), else the text. */
function parsedOrText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function size(node: RecordNode): number {
  let count = 0;
  const stack = [node];
  while (stack.length > 0) {
    const next = stack.pop() as RecordNode;
    count++;
    for (const child of next.children) stack.push(child);
  }
  return count;
}
