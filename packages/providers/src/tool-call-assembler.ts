import type { ToolCall } from '@agent/protocol';
import { parseToolArguments } from '@agent/protocol/util';
import { newToolCallId } from './tool-call-ids.js';

/** A complete tool call from its id, name and argument string. */
export function toolCallFromRaw(id: string, name: string, rawArguments: string): ToolCall {
  const parsed = parseToolArguments(rawArguments);
  const call: ToolCall = { id, name, arguments: parsed.arguments, rawArguments };
  if (parsed.parseError !== undefined) call.parseError = parsed.parseError;
  return call;
}

interface PendingCall {
  index: number | undefined;
  id: string;
  name: string;
  args: string;
}

/**
 * Assembles streamed tool calls. A delta belongs to the call with its `index`; without an index
 * (Mistral) to the call with its `id`; with neither, to the latest call. Empty ids and names in
 * later deltas (Alibaba, vLLM) never overwrite earlier ones; a new id under a used index starts
 * a new call (servers that send every call as index 0).
 */
export class ToolCallAssembler {
  private readonly calls: PendingCall[] = [];

  get size(): number {
    return this.calls.length;
  }

  /** Adds one streamed piece of a call (positional, so a delta costs no extra object). */
  add(
    index: number | null | undefined,
    id: string | null | undefined,
    name: string | null | undefined,
    args: string | null | undefined,
  ): void {
    const call = this.target(typeof index === 'number' ? index : undefined, id || undefined);
    if (id && !call.id) call.id = id;
    if (name && !call.name) call.name = name;
    if (args) call.args += args;
  }

  private target(index: number | undefined, id: string | undefined): PendingCall {
    let found: PendingCall | undefined;
    if (index !== undefined) {
      found = this.findLast((c) => c.index === index);
      if (found && id && found.id && found.id !== id) found = undefined;
    } else if (id) {
      found = this.findLast((c) => c.id === id);
      if (!found && this.calls.length > 0) {
        const last = this.calls[this.calls.length - 1];
        if (last && !last.id) found = last;
      }
    } else {
      found = this.calls[this.calls.length - 1];
    }
    if (found) return found;
    const created: PendingCall = { index, id: '', name: '', args: '' };
    this.calls.push(created);
    return created;
  }

  private findLast(predicate: (call: PendingCall) => boolean): PendingCall | undefined {
    for (let i = this.calls.length - 1; i >= 0; i--) {
      const call = this.calls[i];
      if (call && predicate(call)) return call;
    }
    return undefined;
  }

  /**
   * The complete calls in the order they started; calls without a name are dropped, calls
   * without an id get a random one (unique across turns).
   */
  finish(): ToolCall[] {
    const out: ToolCall[] = [];
    for (const call of this.calls) {
      if (!call.name) continue;
      const id = call.id || newToolCallId();
      out.push(toolCallFromRaw(id, call.name, call.args));
    }
    this.calls.length = 0;
    return out;
  }
}
