import type { AgentEvent, AgentEventMeta, AgentResult, GuardrailRun, OpNode } from '@agent/protocol';
import { type ModelServer, type ScriptStep, startModelServer } from '@agent/testkit';
import { type AgentConfig, type RunOptions, run } from '../../src/index.js';
import { openaiModelOn } from '../helpers/http-model.js';

// Sessions of the guardrail tests: a scripted model server over HTTP, the real OpenAI client,
// and every event a client would see.
export const NONCE = 'g38g38g3';

export const servers: ModelServer[] = [];

export async function serve(steps: ScriptStep[]): Promise<ModelServer> {
  const server = await startModelServer({ strict: true, steps });
  servers.push(server);
  return server;
}

export interface GuardedRun {
  result: AgentResult;
  events: { event: AgentEvent; meta: AgentEventMeta }[];
  /** Every `output` event's text, joined (what a client showed). */
  shown: () => string;
  runs: () => GuardrailRun[];
}

export async function runGuarded(
  agent: AgentConfig,
  prompt: string,
  options: RunOptions = {},
): Promise<GuardedRun> {
  const events: GuardedRun['events'] = [];
  const result = await run(agent, prompt, {
    ...options,
    internal: { nonce: NONCE },
    onEvent: (event, meta) => events.push({ event, meta }),
  });
  return {
    result,
    events,
    shown: () =>
      events
        .map((e) => e.event)
        .filter((e) => e.type === 'output')
        .map((e) => (e as { text: string }).text)
        .join(''),
    runs: () => events.flatMap((e) => (e.event.type === 'guardrail' ? [e.event.run] : [])),
  };
}

export function agentOn(server: ModelServer, extra: Partial<AgentConfig> = {}): AgentConfig {
  return { models: [{ client: openaiModelOn(server) }], llmTimeoutMs: 20_000, ...extra };
}

/** The op tree's guardrail nodes, depth first. */
export function guardrailNodes(root: OpNode): OpNode[] {
  const found: OpNode[] = [];
  const stack: OpNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.kind === 'guardrail') found.push(node);
    stack.push(...node.children);
  }
  return found;
}

/** The text of every message of the result's conversation, joined. */
export function conversationText(result: AgentResult): string {
  return JSON.stringify(result.conversation);
}
