import { otherCheckouts } from '../../harness/other-checkouts.js';
import type { ContenderFactory } from './types.js';

/** What the report says about a contender, and how a child process loads it. */
export interface ContenderInfo {
  id: string;
  /** Packages whose installed version the report names. */
  packages: readonly string[];
  /** How it reaches the server, said beside its figures. */
  transport: string;
  /** What counts as one streamed event for it. */
  events: string;
  /** False when it surfaces no stream (its events/s is n/a). */
  streams: boolean;
  /** Imported only inside that contender's own process, so no two share modules, JIT or heap. */
  load(): Promise<ContenderFactory>;
}

const ownContenders: readonly ContenderInfo[] = [
  {
    id: 'raw-loop',
    packages: ['openai'],
    transport: '`openai` client, streaming',
    events: 'stream chunks',
    streams: true,
    load: async () => (await import('./raw-loop.js')).createRawLoop,
  },
  {
    id: 'raw-loop-xml',
    packages: ['openai', '@agent/xml-transport'],
    transport:
      "the raw loop carrying agent-core's protocol bytes: its XML-NEXT notice on each request, the answer read from the FINAL tag by parseFinalSlot; no runtime",
    events: 'stream chunks',
    streams: true,
    load: async () => (await import('./raw-loop-xml.js')).createRawLoopXml,
  },
  {
    id: 'providers-loop',
    packages: ['@agent/providers', 'openai'],
    transport:
      'the raw loop with each model call through `@agent/providers` (`openai` type over the `openai` client), no core',
    events: '`ModelClient.stream` events',
    streams: true,
    load: async () => (await import('./providers-loop.js')).createProvidersLoop,
  },
  {
    id: 'agent-core',
    packages: ['@agent/core', '@agent/providers', 'openai'],
    transport: '`@agent/providers` `openai` type over the `openai` client, streaming',
    events: '`onEvent` events (output deltas, turns, logs, accounting, op tree)',
    streams: true,
    load: async () => (await import('./agent-core.js')).createAgentCore,
  },
  {
    id: 'agent-core-unwatched',
    packages: ['@agent/core', '@agent/providers', 'openai'],
    transport: 'as agent-core, run without an `onEvent` listener (so not offered `agent__task_status`)',
    events: 'none (no listener)',
    streams: false,
    load: async () => (await import('./agent-core-unwatched.js')).createAgentCoreUnwatched,
  },
  {
    id: 'agent-core-traced',
    packages: [
      '@agent/core',
      '@agent/providers',
      '@agent/telemetry',
      '@opentelemetry/sdk-trace-node',
      'openai',
    ],
    transport: 'as agent-core, each session traced (`traceSession`) into a registered `NodeTracerProvider`',
    events: 'as agent-core',
    streams: true,
    load: async () => (await import('./agent-core-traced.js')).createAgentCoreTraced,
  },
  {
    id: 'openai-agents',
    packages: ['@openai/agents', 'openai'],
    transport: '`OpenAIChatCompletionsModel` over the `openai` client, `run(..., { stream: true })`',
    events: 'streamed run events',
    streams: true,
    load: async () => (await import('./openai-agents.js')).createOpenAIAgents,
  },
  {
    id: 'ai-sdk-generate',
    packages: ['ai', '@ai-sdk/openai'],
    transport:
      '`@ai-sdk/openai` `.chat()` (its own fetch-based provider: the SDK cannot use the `openai` client), NOT streaming: `generateText` makes non-streamed calls',
    events: 'none (not streamed)',
    streams: false,
    load: async () => (await import('./ai-sdk-generate.js')).createAiSdkGenerate,
  },
  {
    id: 'ai-sdk-stream',
    packages: ['ai', '@ai-sdk/openai'],
    transport:
      '`@ai-sdk/openai` `.chat()` (its own fetch-based provider: the SDK cannot use the `openai` client), streaming',
    events: '`fullStream` parts',
    streams: true,
    load: async () => (await import('./ai-sdk-stream.js')).createAiSdkStream,
  },
];

/** agent-core as each `BENCH_COMPARE` checkout (built) runs it: the code before a change, same run. */
function checkoutContenders(): ContenderInfo[] {
  return otherCheckouts().map(({ label, dir }) => ({
    id: `${CHECKOUT_PREFIX}${label}`,
    packages: [],
    transport: `as agent-core, with the core and providers built in the checkout "${label}" (\`BENCH_COMPARE\`; one from before the API redesign runs the session through \`runAgent\` with a \`ToolProvider\`)`,
    events: 'as agent-core',
    streams: true,
    load: async () => (await import('./agent-core-checkout.js')).checkoutCore(dir),
  }));
}

export const RAW_LOOP_ID = 'raw-loop';
/** Ids of the agent-core of another checkout start with this. */
export const CHECKOUT_PREFIX = 'agent-core@';
export const CORE_ID = 'agent-core';
/** The raw loop through @agent/providers: not a peer, the provider layer's share of agent-core's cost. */
export const PROVIDERS_LOOP_ID = 'providers-loop';
/** agent-core with tracing on: not a peer, the same runtime's cost of tracing. */
export const CORE_TRACED_ID = 'agent-core-traced';
/** agent-core run without an event listener: not a peer, what a run nobody watches costs. */
export const CORE_UNWATCHED_ID = 'agent-core-unwatched';
/** The raw loop with agent-core's notice and FINAL tag: not a peer, the protocol's share of the cost. */
export const RAW_LOOP_XML_ID = 'raw-loop-xml';

/** Every contender of this run: ours, the peers, then any `BENCH_COMPARE` checkouts. */
export const contenders: readonly ContenderInfo[] = [...ownContenders, ...checkoutContenders()];

export function contenderById(id: string): ContenderInfo {
  const found = contenders.find((contender) => contender.id === id);
  if (found === undefined) {
    throw new Error(
      `agent-loop: unknown contender "${id}"; known: ${contenders.map((c) => c.id).join(', ')}`,
    );
  }
  return found;
}

/** Another framework a user would pick instead (not the raw floor, nor one of our own variants). */
export function isPeer(id: string): boolean {
  const ours = [RAW_LOOP_ID, RAW_LOOP_XML_ID, CORE_ID, CORE_TRACED_ID, CORE_UNWATCHED_ID, PROVIDERS_LOOP_ID];
  return !ours.includes(id) && !id.startsWith(CHECKOUT_PREFIX);
}
