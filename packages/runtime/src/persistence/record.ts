import {
  type AgentResult,
  type AssistantMessage,
  type ConversationMessage,
  type OpNode,
  type OpPayload,
  type RecordInput,
  type RecordNode,
  SESSION_RECORD_KIND,
  SESSION_RECORD_VERSION,
  type SessionNode,
  type SessionRecord,
  type SessionTape,
} from '@agent/protocol';
import type { Redactor } from '../config/redact.js';

/** The conversations of a run's sessions, by session id: the top one and each sub-agent's. */
export type Conversations = ReadonlyMap<string, readonly ConversationMessage[]>;

/** What a run kept of its sessions for its record, by session id. */
export interface RunPayloads {
  conversations: Conversations;
  /** Each session's tape (absent for a session not recorded). */
  tapes?: ReadonlyMap<string, SessionTape>;
}

/** What a record says besides the result: what the run was asked, and who started it. */
export interface RecordDetails {
  input?: RecordInput;
  owner?: string;
}

/**
 * The record of a finished top-level session: its op tree with each node's payload (taken from
 * the conversation of the session the node belongs to) and each session node's tape, what the
 * run was asked (`input`), logs, accounting and report, every string passed through `redact`,
 * and the principal that started it (`owner`). Without `payloads` the tapes are left out too.
 * Undefined when the run never started a session (no op tree).
 */
export function buildSessionRecord(
  result: AgentResult,
  kept: RunPayloads,
  redact: Redactor,
  options: RecordDetails & { payloads: boolean } = { payloads: true },
): SessionRecord | undefined {
  const root = result.opTree;
  if (root === undefined) return undefined;
  const conversations = new Map(kept.conversations);
  conversations.set(root.sessionId, result.conversation);
  const tapes = options.payloads ? (kept.tapes ?? new Map<string, SessionTape>()) : undefined;
  const tree = recordTree(root, { conversations, tapes }, options.payloads);
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
    ...(options.input === undefined ? {} : { input: options.input }),
    logs: result.logs,
    accounting: result.accounting,
    ...(result.logs[0]?.headendId === undefined ? {} : { headendId: result.logs[0].headendId }),
    ...(options.owner === undefined ? {} : { owner: options.owner }),
  };
  return redactStrings(record, redact);
}

function recordTree(
  session: SessionNode,
  kept: { conversations: Conversations; tapes: ReadonlyMap<string, SessionTape> | undefined },
  payloads: boolean,
): RecordNode {
  const messages = kept.conversations.get(session.sessionId) ?? [];
  const calls = payloads ? toolCallPayloads(messages) : new Map<string, OpPayload>();
  const visit = (node: OpNode): RecordNode => {
    if (node !== session && node.kind === 'session') return recordTree(node as SessionNode, kept, payloads);
    const { children, ...rest } = node;
    const out: RecordNode = { ...rest, children: children.map(visit) };
    const payload = node.toolCallId === undefined ? undefined : calls.get(node.toolCallId);
    if (payload !== undefined) out.payload = payload;
    return out;
  };
  const tree = visit(session);
  const tape = kept.tapes?.get(session.sessionId);
  if (tape !== undefined) tree.tape = tape;
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
