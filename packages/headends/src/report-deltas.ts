import type { AgentEvent, AgentEventMeta } from '@agent/protocol';

/**
 * Which master events become chat deltas: report text as it is written (not of an agent a
 * handoff follows: its report is the handoff's input), reasoning.
 */
export class ReportDeltas {
  private streamed = false;
  private readonly pendingFinalize: string[] = [];

  /** The delta to send now for an event, if any. */
  onEvent(event: AgentEvent, meta: AgentEventMeta): { content?: string; reasoning?: string } | undefined {
    if (!meta.isMaster) return undefined;
    if (event.type === 'thinking' && meta.source !== 'replay') return { reasoning: event.text };
    if (event.type !== 'output') return undefined;
    // An agent whose answer goes on to a handoff agent writes no part of the reply.
    if ((meta.pendingHandoffCount ?? 0) > 0) return undefined;
    if (meta.source === 'finalize') {
      if (!this.streamed) this.pendingFinalize.push(event.text);
      return undefined;
    }
    if (meta.source === 'replay') return undefined;
    this.streamed = true;
    return { content: event.text };
  }

  /** Text still owed at the end: the `finalize` output when nothing streamed, else the report. */
  remainder(reportText: string | undefined): string | undefined {
    if (this.streamed) return undefined;
    if (this.pendingFinalize.length > 0) return this.pendingFinalize.join('');
    return reportText;
  }
}
