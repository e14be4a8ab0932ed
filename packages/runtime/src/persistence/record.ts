import {
  type AgentResult,
  type AssistantMessage,
  type ConversationMessage,
  type OpNode,
  type OpPayload,
  type RecordNode,
  SESSION_RECORD_KIND,
  SESSION_RECORD_VERSION,
  type SessionNode,
  type SessionRecord,
} from '@agent/protocol';
import type { Redactor } from '../config/redact.js';

/** The conversations of a run's sessions, by session id: the top one and each sub-agent's. */
export type Conversations = ReadonlyMap<string, readonly ConversationMessage[]>;

/**
 * The record of a finished top-level session: its op tree with each node's payload (taken from
 * the conversation of the session the node belongs to), logs, accounting and report, every
 * string passed through `redact`, and the principal that started it (`owner`). Undefined when
 * the run never started a session (no op tree).
 */
export function buildSessionRecord(
  result: AgentResult,
  conversations: Conversations,
  redact: Redactor,
  options: { payloads: boolean; owner?: string } = { payloads: true },
): SessionRecord | undefined {
  const root = result.opTree;
  if (root === undefined) return undefined;
  const all = new Map(conversations);
  all.set(root.sessionId, result.conversation);
  const tree = recordTree(root, all, options.payloads);
  const endedAt = root.endedAt ?? root.startedAt + root.totals.durationMs;
  const record: SessionRecord = {
    kind: SESSION_RECORD_KIND,
    version: SESSION_RECORD_VERSION,
    sessionId: result.sessionId,
    agent: root.label,
    startedAt: root.startedAt,
    endedAt,
    durationMs: endedAt - root.startedAt,
    success: result.success,
    exitCode: result.exitCode,
    ...(result.error === undefined ? {} : { error: result.error }),
    ...(result.finalReport === undefined ? {} : { finalReport: result.finalReport }),
    totals: root.totals,
    tree,
    logs: result.logs,
    accounting: result.accounting,
    ...(result.logs[0]?.headendId === undefined ? {} : { headendId: result.logs[0].headendId }),
    ...(options.owner === undefined ? {} : { owner: options.owner }),
  };
  return redactStrings(record, redact);
}

function recordTree(session: SessionNode, conversations: Conversations, payloads: boolean): RecordNode {
  const messages = conversations.get(session.sessionId) ?? [];
  const calls = payloads ? toolCallPayloads(messages) : new Map<string, OpPayload>();
  const visit = (node: OpNode): RecordNode => {
    if (node !== session && node.kind === 'session')
      return recordTree(node as SessionNode, conversations, payloads);
    const { children, ...rest } = node;
    const out: RecordNode = { ...rest, children: children.map(visit) };
    const payload = node.toolCallId === undefined ? undefined : calls.get(node.toolCallId);
    if (payload !== undefined) out.payload = payload;
    return out;
  };
  const tree = visit(session);
  if (payloads) attachLlmPayloads(tree, messages);
  return tree;
}

/** Each tool call's arguments (as the model sent them) and result, by call id. */
function toolCallPayloads(messages: readonly ConversationMessage[]): Map<string, OpPayload> {
  const out = new Map<string, OpPayload>();
  for (const message of messages) {
    if (message.role === 'assistant') {
      for (const call of message.toolCalls ?? [])
        out.set(call.id, { arguments: call.rawArguments ?? JSON.stringify(call.arguments) });
    } else if (message.role === 'tool') {
      const payload = out.get(message.toolCallId) ?? {};
      out.set(message.toolCallId, { ...payload, result: message.content });
    }
  }
  return out;
}

/**
 * The answer of each turn's last successful LLM call: the assistant message that made the
 * turn's tool calls, or (the last turn, no tool calls) the conversation's last assistant
 * message; with the size of the request that preceded it.
 */
function attachLlmPayloads(session: RecordNode, messages: readonly ConversationMessage[]): void {
  const turns = session.children.filter((node) => node.kind === 'turn');
  turns.forEach((turn, i) => {
    const llm = turn.children.filter((node) => node.kind === 'llm' && node.status === 'ok').at(-1);
    if (llm === undefined) return;
    const ids = new Set(
      turn.children.flatMap((node) => (node.toolCallId === undefined ? [] : [node.toolCallId])),
    );
    let index = messages.findIndex(
      (message) => message.role === 'assistant' && (message.toolCalls ?? []).some((call) => ids.has(call.id)),
    );
    if (index < 0 && ids.size === 0 && i === turns.length - 1)
      index = messages.findLastIndex((message) => message.role === 'assistant');
    if (index < 0) return;
    const before = messages.slice(0, index);
    llm.payload = {
      requestMessages: before.length,
      requestCharacters: before.reduce((sum, message) => sum + message.content.length, 0),
      response: (messages[index] as AssistantMessage).content,
    };
  });
}

/** A copy with `redact` applied to every string (keys are the runtime's own, left as they are). */
export function redactStrings<T>(value: T, redact: Redactor): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map((item) => redactStrings(item, redact)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = redactStrings(item, redact);
    return out as T;
  }
  return value;
}
