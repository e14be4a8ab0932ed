import type { AgentEvent, AgentEventMeta } from '@agent/protocol';

/** The `output_retracted` slug of text an output guardrail blocked as it streamed. */
export const GUARDRAIL_SLUG = 'guardrail';

/** What one event means for a chat stream. */
export interface ReportDelta {
  content?: string;
  reasoning?: string;
  /**
   * Report text already sent will not be the report (an `output_retracted` event): the wire
   * protocol cannot take it back, so the stream ends with this error instead of going on.
   */
  withdrawn?: string;
}

/**
 * Which master events become chat deltas: report text as it is written (not of an agent a
 * handoff follows: its report is the handoff's input), reasoning.
 */
export class ReportDeltas {
  private streamed = false;
  private readonly pendingFinalize: string[] = [];
  /** Set when streamed text was withdrawn: why the stream ends with an error. */
  withdrawn: string | undefined;

  /**
   * A chat stream's run listener: each delta goes to `write`; a withdrawn answer (sent text
   * cannot be taken back in these protocols) is kept in `withdrawn`, `stop` ends the run and
   * nothing more is written.
   */
  listener(
    write: (delta: ReportDelta) => void,
    stop: (why: string) => void,
  ): (event: AgentEvent, meta: AgentEventMeta) => void {
    return (event, meta) => {
      if (this.withdrawn !== undefined) return;
      const delta = this.onEvent(event, meta);
      if (delta === undefined) return;
      if (delta.withdrawn !== undefined) {
        this.withdrawn = delta.withdrawn;
        if (event.type === 'output_retracted' && event.slug === GUARDRAIL_SLUG) return;
        stop('the streamed answer was withdrawn');
        return;
      }
      write(delta);
    };
  }

  /** The delta to send now for an event, if any. */
  onEvent(event: AgentEvent, meta: AgentEventMeta): ReportDelta | undefined {
    if (!meta.isMaster) return undefined;
    if (event.type === 'thinking' && meta.source !== 'replay') return { reasoning: event.text };
    if (event.type === 'output_retracted') {
      // Nothing of it reached the client: nothing to withdraw.
      if (!this.streamed) return undefined;
      return {
        withdrawn: `the answer streamed so far was withdrawn before it became the report (${event.slug}: ${event.reason}); the run was stopped, send the request again`,
      };
    }
    if (event.type !== 'output') return undefined;
    // An agent whose answer goes on to a handoff agent writes no part of the reply.
    if ((meta.pendingHandoffCount ?? 0) > 0) return undefined;
    if (meta.source === 'finalize') {
      if (!this.streamed) this.pendingFinalize.push(event.text);
      return undefined;
    }
    if (meta.source === 'replay') return undefined;
    // `stream` and `journal` (a resumed session replaying a journaled answer: a face behind the
    // queue has dropped what its client already got) are both text the client lacks.
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
