import {
  finalReport,
  type ModelServer,
  type RecordedRequest,
  type ScriptStep,
  startModelServer,
} from '@agent/testkit';
import { type AgentConfig, defineAgent, tool } from '../../src/index.js';
import { openaiModelOn } from '../helpers/http-model.js';

// The 5-turn session of the checkpoint tests: four weather lookups, then a report.
export const NONCE = 'c4ec4ec4';
const CITIES = ['Athens', 'Rome', 'Oslo', 'Lima'];

/** Turns 1-4 call the tool (with usage, so the token estimator learns), turn 5 reports. */
export const STEPS: ScriptStep[] = [
  ...CITIES.map((city, index) => ({
    text: `Looking up ${city}.`,
    toolCalls: [{ id: `call_${index + 1}`, name: 'weather', arguments: { city } }],
    usage: { inputTokens: 400 + index * 90, outputTokens: 20 },
  })),
  finalReport('Four cities looked up.', { answer: { usage: { inputTokens: 900, outputTokens: 30 } } }),
];

/** Servers started by `serve`; each test file closes them after each test. */
export const servers: ModelServer[] = [];

export async function serve(steps: ScriptStep[]): Promise<ModelServer> {
  const server = await startModelServer({ strict: true, steps });
  servers.push(server);
  return server;
}

export function agentOn(server: ModelServer): AgentConfig {
  return defineAgent({
    model: openaiModelOn(server),
    instructions: 'Look up the weather of every city, one per turn.',
    tools: [
      tool({
        name: 'weather',
        description: 'The weather in a city',
        parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        execute: ({ city }) => `${String(city)}: 21C`,
      }),
    ],
    maxTurns: 8,
  });
}

/** What a request says, without the transport's own framing. */
export const sent = (request: RecordedRequest) => ({
  messages: request.messages,
  tools: request.tools,
  body: request.body,
});
