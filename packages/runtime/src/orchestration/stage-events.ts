import type { AgentEventMeta } from '@agent/protocol';
import type { EventListener } from '../runner/run-scope.js';

/** Where the report of a chain's stage goes next, once it is known. */
export interface Onward {
  /** Agent path of the agent that takes the report. */
  to: string;
  via: 'router' | 'handoff';
}

export interface StageEventOptions {
  /** The listener the events go on to (the scope's). */
  base: EventListener;
  handoffConfigured: boolean;
  pendingHandoffCount: number;
  /** Asked when the stage commits its report: where it goes, or undefined when it is the answer. */
  onward: () => Onward | undefined;
  /** True once the stage's text is no answer at all (a router that handed the request on). */
  dropOutput: () => boolean;
}

/**
 * The listener of one stage of a chain: its meta says whether handoffs follow
 * (`handoffConfigured`, `pendingHandoffCount`), and a committed report that goes on to another
 * agent is a `handoff` event instead of `final_report` (it is that agent's input, not the answer).
 */
export function stageListener(options: StageEventOptions): EventListener {
  const decorated = new WeakMap<AgentEventMeta, AgentEventMeta>();
  const decorate = (meta: AgentEventMeta): AgentEventMeta => {
    let out = decorated.get(meta);
    if (out === undefined) {
      // Core hands out a few frozen meta objects per session, so this copies a handful of times.
      out = Object.freeze({
        ...meta,
        handoffConfigured: options.handoffConfigured,
        pendingHandoffCount: options.pendingHandoffCount,
      });
      decorated.set(meta, out);
    }
    return out;
  };
  return (event, meta) => {
    if (
      event.type === 'final_report' &&
      event.report.origin !== 'synthetic' &&
      event.report.synthetic !== true
    ) {
      const next = options.onward();
      if (next !== undefined) {
        options.base(
          { type: 'handoff', report: event.report, from: meta.agentPath, to: next.to, via: next.via },
          decorate({ ...meta, isFinal: false }),
        );
        return;
      }
    }
    if (event.type === 'output' && options.dropOutput()) return;
    options.base(event, decorate(meta));
  };
}
