import type { AgentCatalog, ServedAgent, ServedRunOptions } from '@agent/headends/http';
import { createCatalog } from '@agent/headends/http';
import {
  type AgentEvent,
  type AgentEventMeta,
  type AgentResult,
  contextGuardEvent,
  isToolCallEntry,
} from '@agent/protocol';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { type KnownLabels, MetricLabels } from './metric-labels.js';

/** What a queue gauge reads at scrape time: a headend's admission (in use, waiting). */
export interface AdmissionView {
  name: string;
  admission: {
    readonly active: number;
    readonly queued: number;
    onAdmitted: ((waitedMs: number) => void) | undefined;
  };
}

/** Bounded: configured provider and model (else `other`), and the protocol's known triggers and outcomes. */
const GUARD_LABELS = ['provider', 'model', 'trigger', 'outcome'];

const SECONDS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

/**
 * The server's Prometheus metrics, fed by the events of every run (sub-agents included). Label
 * values are the configured names in `known`; anything else is `other` (`MetricLabels`).
 */
export class AgentMetrics {
  readonly registry = new Registry();
  private readonly labels: MetricLabels;
  private readonly admissions: AdmissionView[] = [];
  private readonly llmRequests = this.counter('agent_llm_requests_total', 'LLM requests (attempts)', [
    'provider',
    'model',
    'status',
  ]);
  private readonly llmLatency = this.histogram('agent_llm_request_duration_seconds', 'LLM request latency', [
    'provider',
    'model',
  ]);
  private readonly llmTokens = this.counter(
    'agent_llm_tokens_total',
    'LLM tokens by type (input, output, cached)',
    ['provider', 'model', 'type'],
  );
  private readonly llmCost = this.counter('agent_llm_cost_usd_total', 'LLM cost in USD (when known)', [
    'provider',
    'model',
  ]);
  private readonly llmErrors = this.counter('agent_llm_errors_total', 'failed LLM requests', [
    'provider',
    'model',
    'error',
  ]);
  private readonly llmRetries = this.counter(
    'agent_llm_retries_total',
    'LLM requests that were a retry (attempt above 1)',
    ['provider', 'model'],
  );
  private readonly toolCalls = this.counter('agent_tool_calls_total', 'tool calls', [
    'server',
    'tool',
    'status',
  ]);
  private readonly toolLatency = this.histogram('agent_tool_call_duration_seconds', 'tool call latency', [
    'server',
    'tool',
  ]);
  private readonly toolErrors = this.counter('agent_tool_errors_total', 'failed tool calls', [
    'server',
    'tool',
    'error',
  ]);
  // Seed 002's `ai_agent_context_guard_events_total` and `..._remaining_tokens`, in this server's prefix.
  private readonly contextGuard = this.counter(
    'agent_context_guard_events_total',
    'context guard activations: a tool result dropped or the final turn forced, by what fired it',
    GUARD_LABELS,
  );
  private readonly guardRemaining = new Gauge({
    name: 'agent_context_guard_remaining_tokens',
    help: 'tokens left in the context window at the last guard activation (before what it refused)',
    labelNames: GUARD_LABELS,
    registers: [this.registry],
  });
  private readonly guardrailRuns = this.counter(
    'agent_guardrail_runs_total',
    'guardrail runs, by guardrail, stage, phase and outcome (pass, block, rewrite, deny, ask, error)',
    ['guardrail', 'stage', 'phase', 'outcome'],
  );
  private readonly guardrailLatency = this.histogram(
    'agent_guardrail_duration_seconds',
    'how long guardrail checks took',
    ['guardrail', 'stage'],
    [0.001, 0.005, 0.025, 0.1, 0.5, 1, 2.5, 10, 30],
  );
  private readonly policyDecisions = this.counter(
    'agent_tool_policy_decisions_total',
    'tool policy decisions (allow, deny, ask), by whether a rule or the default decided',
    ['decision', 'by'],
  );
  private readonly compactions = this.counter(
    'agent_compactions_total',
    'compactions of a session context, by outcome (compacted: older turns replaced by a summary; failed) and trigger (turn_projection: between two turns; tool_result: inside a turn)',
    ['outcome', 'trigger'],
  );
  private readonly compactionSaved = this.counter(
    'agent_compaction_tokens_saved_total',
    'tokens of the next request that compactions took out (before minus after)',
    [],
  );
  private readonly reports = this.counter('agent_final_reports_total', 'final reports of the top sessions', [
    'status',
    'format',
    'source',
  ]);
  private readonly sessions = this.counter('agent_sessions_total', 'runs finished, by agent and exit code', [
    'agent',
    'exit_code',
  ]);
  private readonly queueWait = this.histogram(
    'agent_queue_wait_seconds',
    'how long admitted requests waited for a slot, per headend',
    ['headend'],
    [0.001, 0.01, 0.1, 0.5, 1, 5, 15, 60],
  );
  private readonly inFlight = new Gauge({
    name: 'agent_sessions_in_flight',
    help: 'runs in progress',
    labelNames: ['agent'],
    registers: [this.registry],
  });

  constructor(known: KnownLabels) {
    this.labels = new MetricLabels(known);
    const admissions = this.admissions;
    new Gauge({
      name: 'agent_queue_in_use',
      help: 'sessions running, per headend (its concurrency slots in use)',
      labelNames: ['headend'],
      registers: [this.registry],
      collect() {
        for (const view of admissions) this.set({ headend: view.name }, view.admission.active);
      },
    });
    new Gauge({
      name: 'agent_queue_depth',
      help: 'requests waiting for a slot, per headend',
      labelNames: ['headend'],
      registers: [this.registry],
      collect() {
        for (const view of admissions) this.set({ headend: view.name }, view.admission.queued);
      },
    });
  }

  private counter(name: string, help: string, labelNames: string[]): Counter {
    return new Counter({ name, help, labelNames, registers: [this.registry] });
  }

  /** A histogram of seconds (latency buckets unless told). */
  private histogram(name: string, help: string, labelNames: string[], buckets = SECONDS): Histogram {
    return new Histogram({ name, help, labelNames, buckets, registers: [this.registry] });
  }

  /**
   * The shared run queue (`--queue redis://`): its jobs by state, read from Redis at each scrape.
   * A Redis that does not answer leaves the gauge empty for that scrape (the face still serves).
   */
  watchRunQueue(queue: { counts(): Promise<Record<string, number>> }): void {
    new Gauge({
      name: 'agent_run_queue_jobs',
      help: 'jobs on the shared run queue, by state (waiting, active, delayed, ...)',
      labelNames: ['state'],
      registers: [this.registry],
      async collect() {
        this.reset();
        const counts = await queue.counts().catch(() => undefined);
        for (const [state, count] of Object.entries(counts ?? {})) this.set({ state }, count);
      },
    });
  }

  /** A headend whose admission the queue gauges read. */
  watchAdmission(view: AdmissionView): void {
    this.admissions.push(view);
    view.admission.onAdmitted = (waitedMs) => this.queueWait.observe({ headend: view.name }, waitedMs / 1000);
  }

  /** Feeds one event of a run. */
  observe(event: AgentEvent, meta: AgentEventMeta): void {
    if (event.type === 'accounting') {
      const entry = event.entry;
      if (entry.type === 'llm') {
        const labels = this.labels.llm(entry.provider, entry.model);
        this.llmRequests.inc({ ...labels, status: entry.status });
        this.llmLatency.observe(labels, entry.latency / 1000);
        this.llmTokens.inc({ ...labels, type: 'input' }, entry.tokens.inputTokens);
        this.llmTokens.inc({ ...labels, type: 'output' }, entry.tokens.outputTokens);
        this.llmTokens.inc({ ...labels, type: 'cached' }, entry.tokens.cachedTokens ?? 0);
        if (entry.costUsd !== undefined) this.llmCost.inc(labels, entry.costUsd);
        if (entry.status === 'failed') this.llmErrors.inc({ ...labels, error: errorKind(entry.error) });
        if ((entry.attempt ?? 1) > 1) this.llmRetries.inc(labels);
      } else if (isToolCallEntry(entry)) {
        // The committed report is the answer, not a tool call: `agent_final_reports_total` counts it.
        const labels = this.labels.tool(entry.mcpServer, entry.command);
        this.toolCalls.inc({ ...labels, status: entry.status });
        this.toolLatency.observe(labels, entry.latency / 1000);
        if (entry.status === 'failed') this.toolErrors.inc({ ...labels, error: errorKind(entry.error) });
      }
    } else if (event.type === 'log') {
      const guard = contextGuardEvent(event.entry);
      if (guard !== undefined) {
        const labels = {
          ...this.labels.llm(guard.provider ?? '', guard.model ?? ''),
          trigger: guard.trigger,
          outcome: guard.outcome,
        };
        this.contextGuard.inc(labels);
        if (guard.remainingTokens !== undefined) this.guardRemaining.set(labels, guard.remainingTokens);
      }
    } else if (event.type === 'guardrail') {
      const { run } = event;
      const guardrail = this.labels.guardrail(run.name);
      this.guardrailRuns.inc({ guardrail, stage: run.on, phase: run.phase, outcome: run.outcome });
      this.guardrailLatency.observe({ guardrail, stage: run.on }, run.latencyMs / 1000);
    } else if (event.type === 'tool_policy') {
      const { verdict } = event;
      this.policyDecisions.inc({
        decision: verdict.decision,
        by: verdict.rule === 'default' ? 'default' : 'rule',
      });
    } else if (event.type === 'compaction') {
      const { run } = event;
      this.compactions.inc({ outcome: run.outcome, trigger: run.trigger });
      if (run.outcome === 'compacted')
        this.compactionSaved.inc(Math.max(0, run.beforeTokens - run.afterTokens));
    } else if (event.type === 'final_report' && meta.isMaster) {
      const { report } = event;
      this.reports.inc({ status: report.status, format: report.format, source: report.origin ?? 'declared' });
    }
  }

  /** The same agents, each run counted in flight and its events observed. */
  catalog(inner: AgentCatalog): AgentCatalog {
    return createCatalog(inner.list().map((info) => this.agent(inner.get(info.name) as ServedAgent)));
  }

  private agent(agent: ServedAgent): ServedAgent {
    const name = this.labels.agent(agent.info.name);
    const track = async <O extends ServedRunOptions>(
      options: O,
      start: (options: O) => Promise<AgentResult>,
    ) => {
      const own = options.onEvent;
      this.inFlight.inc({ agent: name });
      try {
        const result = await start({
          ...options,
          onEvent: (event: AgentEvent, meta: AgentEventMeta) => {
            this.observe(event, meta);
            own?.(event, meta);
          },
        });
        this.sessions.inc({ agent: name, exit_code: result.exitCode });
        return result;
      } finally {
        this.inFlight.dec({ agent: name });
      }
    };
    const sessions = agent.sessions;
    return {
      ...agent,
      run: (input, options) => track(options, (o) => agent.run(input, o)),
      ...(sessions === undefined
        ? {}
        : {
            sessions: { ...sessions, resume: (id, options) => track(options, (o) => sessions.resume(id, o)) },
          }),
    };
  }
}

/** An error label with bounded values: the kind before any `:` (`timeout`, `rate_limit`, ...), at most 40 characters. */
function errorKind(error: string | undefined): string {
  const kind = (error ?? 'failed').split(':')[0]?.trim() ?? 'failed';
  return kind.length > 40 || !/^[\w.-]+$/.test(kind) ? 'other' : kind;
}
