import { TaskState } from '@a2a-js/sdk';
import type { AgentResult } from '@agent/protocol';
import {
  a2aClient,
  asTask,
  sendRequest,
  statusText,
  textPart as text,
  userMessage,
} from '@agent/testkit/a2a';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createA2aHeadend,
  createCatalog,
  type ServedAgent,
  type ServedHeadend,
  type ServedRunOptions,
  serve,
} from '../../src/index.js';

// How a run's end becomes the task's last state, with agents that play the runtime's side of the
// contract (their results as the runtime gives them): a guardrail trip and refused input are
// REJECTED, a report that missed its schema is the artifact then FAILED, any other failure
// FAILED with the error. The run options the face passes are recorded.
const base = { conversation: [], logs: [], accounting: [], sessionId: 's' };
const ENDINGS: Record<string, AgentResult> = {
  trip: {
    ...base,
    success: false,
    exitCode: 'EXIT-GUARDRAIL',
    error: 'blocked',
    guardrail: { name: 'no-cards', on: 'input', phase: 'prompt', reason: 'rule pii.card matched' },
  },
  refused: {
    ...base,
    success: false,
    exitCode: 'EXIT-CONFIGURATION',
    error: 'the schema does not fit the context window',
    inputRejected: true,
  },
  mismatch: {
    ...base,
    success: false,
    exitCode: 'EXIT-FINAL-REPORT-SCHEMA-MISMATCH',
    finalReport: {
      status: 'success',
      format: 'json',
      content_json: { n: 'seven' },
      ts: 1,
      validationErrors: [{ instancePath: '/n', message: 'must be integer' }],
    },
  },
  broken: { ...base, success: false, exitCode: 'EXIT-MODEL-ERROR', error: 'the model is down' },
} as unknown as Record<string, AgentResult>;

const seenOptions: ServedRunOptions[] = [];
const scripted: ServedAgent = {
  info: {
    name: 'scripted',
    description: 'Ends as told.',
    outputFormat: 'json',
    outputSchema: { type: 'object' },
  },
  run: async (input, options) => {
    seenOptions.push(options);
    const prompt = typeof input === 'string' ? input : input.prompt;
    return ENDINGS[prompt] ?? ENDINGS.broken!;
  },
};

let server: ServedHeadend;

beforeAll(async () => {
  server = await serve(createA2aHeadend({ catalog: createCatalog([scripted]), tokens: ['t1'] }));
});

afterAll(async () => {
  await server.close();
});

async function send(prompt: string, metadata: Record<string, unknown> = {}) {
  const client = await a2aClient(`${server.url}/a2a`, 'scripted', 't1');
  const message = { ...userMessage([text(prompt)]), metadata };
  return asTask(await client.sendMessage(sendRequest(message)));
}

describe('A2A task endings', () => {
  it('a guardrail trip is REJECTED with the guardrail named', async () => {
    const task = await send('trip');
    expect(task.status?.state).toBe(TaskState.TASK_STATE_REJECTED);
    expect(statusText(task)).toBe('guardrail no-cards blocked the input: rule pii.card matched');
  });

  it('refused input is REJECTED with the reason', async () => {
    const task = await send('refused');
    expect(task.status?.state).toBe(TaskState.TASK_STATE_REJECTED);
    expect(statusText(task)).toBe('the schema does not fit the context window');
  });

  it('a report that missed its schema is sent as the artifact, and the task FAILED naming the errors', async () => {
    const task = await send('mismatch');
    expect(task.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(statusText(task)).toBe('the report does not match the output schema: /n: must be integer');
    expect(task.artifacts[0]?.parts[0]?.content).toEqual({ $case: 'data', value: { n: 'seven' } });
  });

  it('a failed run is FAILED with its error; the run got the task id as session id and the context as conversation', async () => {
    const task = await send('broken');
    expect(task.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(statusText(task)).toBe('the agent run failed (EXIT-MODEL-ERROR): the model is down');
    expect(seenOptions.at(-1)).toMatchObject({
      sessionId: task.id,
      conversationId: task.contextId,
      headendId: 'a2a',
    });
    expect(seenOptions.at(-1)?.owner).toMatch(/^p-[0-9a-f]{24}$/);
  });

  it('a context id that is no conversation id maps to a2a- and a hash; metadata asks the format and schema', async () => {
    const client = await a2aClient(`${server.url}/a2a`, 'scripted', 't1');
    const schema = { type: 'object', properties: { n: { type: 'integer' } } };
    const message = {
      ...userMessage([text('broken')], '', 'a context / with spaces'),
      metadata: { format: 'json', schema },
    };
    await client.sendMessage(sendRequest(message));
    expect(seenOptions.at(-1)).toMatchObject({ format: 'json', schema });
    expect(seenOptions.at(-1)?.conversationId).toMatch(/^a2a-[0-9a-f]{32}$/);
    const bad = await send('broken', { format: 'markdown', schema });
    expect(bad.status?.state).toBe(TaskState.TASK_STATE_REJECTED);
    expect(statusText(bad)).toBe('metadata "schema" is allowed only with "format" json, not markdown');
  });
});
