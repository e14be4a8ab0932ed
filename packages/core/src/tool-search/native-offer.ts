import type { ConversationMessage, ToolDefinition } from '@agent/protocol';

/**
 * The tools of a native tool search (docs/tool-search.md, "Provider-native loading"): every
 * registry tool is sent all session, the hidden ones deferred, and the provider loads a tool when
 * a search result in the conversation references it. So the list stays the same array while
 * nothing changes. A found tool whose reference left the conversation (a compaction replaced
 * that turn) is sent loaded instead: derived from the conversation, so a resume sends the same.
 */
export class NativeOffer {
  private cached:
    | { loose: string; internal: readonly ToolDefinition[]; all: readonly ToolDefinition[] }
    | undefined;

  /** The hidden tools marked deferred, made once (the same objects every turn). */
  private readonly deferred: readonly ToolDefinition[];

  constructor(
    private readonly alwaysOn: readonly ToolDefinition[],
    private readonly hidden: readonly ToolDefinition[],
    private readonly search: ToolDefinition,
  ) {
    this.deferred = hidden.map((tool) => ({ ...tool, deferLoading: true }));
  }

  /** always-on ∪ `tool_search` ∪ `internal` ∪ the hidden tools (deferred unless loose). */
  offeredWith(
    internal: readonly ToolDefinition[],
    found: readonly string[],
    conversation: readonly ConversationMessage[],
  ): readonly ToolDefinition[] {
    const referenced = referencedTools(conversation);
    const loose = found.filter((name) => !referenced.has(name));
    const key = loose.join('\n');
    const cached = this.cached;
    if (cached !== undefined && cached.loose === key && cached.internal === internal) return cached.all;
    const sentLoaded = new Set(loose);
    const all = [
      ...this.alwaysOn,
      this.search,
      ...internal,
      ...this.hidden.map((tool, index) => (sentLoaded.has(tool.name) ? tool : this.deferred[index]!)),
    ];
    this.cached = { loose: key, internal, all };
    return all;
  }
}

/** The tools the conversation's tool results load. */
function referencedTools(conversation: readonly ConversationMessage[]): Set<string> {
  const names = new Set<string>();
  for (const message of conversation) {
    if (message.role === 'tool') for (const name of message.toolReferences ?? []) names.add(name);
  }
  return names;
}
