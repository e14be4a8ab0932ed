import type { AgentEvent, AgentEventMeta, AgentResult, ModelTarget, ToolProvider } from '@agent/protocol';
import { type ScriptedModel, type ScriptStep, scriptedModel } from '@agent/testkit';
import { type AgentSessionConfig, createAgentSession } from '../../src/index.js';

export const NONCE = 'abcd1234';
export const TAG = `ai-agent-${NONCE}-FINAL`;

/** The answer text of a model that sends its final report through the XML slot. */
export function xmlReport(payload: string, attributes = 'status="success" format="markdown"'): string {
  return `<${TAG} tool="agent__final_report" ${attributes}>${payload}</${TAG}>`;
}

export interface RecordedEvent {
  event: AgentEvent;
  meta: AgentEventMeta;
}

export interface ScenarioRun {
  result: AgentResult;
  events: RecordedEvent[];
  models: ScriptedModel[];
  /** Event types in order, without logs and accounting (the loop's visible rhythm). */
  rhythm: string[];
  outputText: (source?: 'stream' | 'finalize') => string;
  /** Waits the session asked for (retry backoff, rate limits); the scenario does not really wait unless `sleep` is given. */
  waits: number[];
  /** The session's ending marker (`agent:EXIT-...`). */
  exitLog: string | undefined;
}

export interface ScenarioSpec
  extends Partial<Omit<AgentSessionConfig, 'model' | 'models' | 'tools' | 'internal'>> {
  /** Test hooks besides the fixed nonce (`sleep` defaults to recording the waits). */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  now?: () => number;
  /** One script per target, in fallback order. */
  scripts: ScriptStep[][];
  tools?: ToolProvider[];
  targetOptions?: Partial<Omit<ModelTarget, 'client'>>[];
  /** Called once the session exists; may return a listener that sees every event (to stop or abort at a chosen moment). */
  control?: (
    session: ReturnType<typeof createAgentSession>,
    events: RecordedEvent[],
  ) => ((event: AgentEvent) => void) | undefined;
}

/** Runs one session against scripted models and collects everything a user would see. */
export async function runScenario(spec: ScenarioSpec): Promise<ScenarioRun> {
  const { scripts, tools, targetOptions, control, sleep, now, ...rest } = spec;
  const models = scripts.map((steps, index) =>
    scriptedModel(steps, { provider: `p${index + 1}`, model: `m${index + 1}` }),
  );
  const events: RecordedEvent[] = [];
  let controlListener: ((event: AgentEvent) => void) | undefined;
  const waits: number[] = [];
  const session = createAgentSession({
    prompt: 'Do the task.',
    ...rest,
    internal: {
      nonce: NONCE,
      sleep: sleep ?? (async (ms: number) => void waits.push(ms)),
      ...(now === undefined ? {} : { now }),
    },
    models: models.map((client, index) => ({ client, ...(targetOptions?.[index] ?? {}) })),
    tools: tools ?? [],
    onEvent: (event, meta) => {
      events.push({ event, meta });
      controlListener?.(event);
      rest.onEvent?.(event, meta);
    },
  });
  controlListener = control?.(session, events);
  const result = await session.run();
  return {
    result,
    events,
    models,
    rhythm: events.map((e) => e.event.type).filter((type) => type !== 'log' && type !== 'accounting'),
    outputText: (source) =>
      events
        .filter((e) => e.event.type === 'output' && (source === undefined || e.meta.source === source))
        .map((e) => (e.event as { text: string }).text)
        .join(''),
    waits,
    // The session's ending marker: the last one (the context guard logs its own when it fires).
    exitLog: result.logs.findLast((log) => log.remoteIdentifier.startsWith('agent:EXIT-'))?.remoteIdentifier,
  };
}

export function llmEntries(result: AgentResult) {
  return result.accounting.filter((entry) => entry.type === 'llm');
}

export function toolEntries(result: AgentResult) {
  return result.accounting.filter((entry) => entry.type === 'tool');
}
