import { type AgentEvent, ConfigError, type ConversationMessage } from '@agent/protocol';
import { finalReport, type RecordedRequest, scriptedModel, text, toolCall } from '@agent/testkit';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { createAgentSession, defineAgent, run, tool } from '../../src/index.js';
import { memoryTools } from '../helpers/memory-tools.js';

const weather = tool({
  name: 'get_weather',
  description: 'The current weather in a city',
  parameters: z.object({ city: z.string(), unit: z.enum(['C', 'F']).default('C') }),
  execute: async ({ city, unit }) => ({ city, temperature: unit === 'C' ? 18 : 64, unit }),
});

/** The tool messages the model got, in order. */
function toolMessages(request: RecordedRequest): string[] {
  return request.messages.filter((m) => m.role === 'tool').map((m) => m.content);
}

describe('run(agent, input)', () => {
  test('a typed tool, a JSON schema from zod, a report that narrows on success', async () => {
    const client = scriptedModel([
      toolCall('get_weather', { city: 'Paris' }),
      finalReport({ city: 'Paris', celsius: 18 }),
    ]);
    const agent = defineAgent({
      model: client,
      instructions: 'Use the weather tool.',
      tools: [weather],
      output: { format: 'json', schema: z.object({ city: z.string(), celsius: z.number() }) },
    });
    const result = await run(agent, 'How warm is it in Paris?');
    expect(result.success).toBe(true);
    if (!result.success) return;
    expect(result.finalReport.content_json).toEqual({ city: 'Paris', celsius: 18 });
    // The tool ran with the validated, defaulted arguments; its JSON went back to the model.
    expect(toolMessages(client.requests[1]!)).toEqual(['{"city":"Paris","temperature":18,"unit":"C"}']);
    // The model saw the tool's JSON Schema, made by zod, and the system prompt.
    expect(client.requests[0]!.tools.find((t) => t.name === 'get_weather')?.inputSchema).toMatchObject({
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
    });
    expect(client.requests[0]!.messages[0]).toEqual({ role: 'system', content: 'Use the weather tool.' });
    // The output schema reached the model in zod's JSON Schema form.
    expect(client.requests[0]!.messages.at(-1)?.content).toContain('"celsius":{"type":"number"}');
  });

  test("a tool's definition is the same object in every run, so its token count is kept", async () => {
    const client = scriptedModel([
      finalReport({ city: 'Paris', celsius: 18 }),
      finalReport({ city: 'Rome', celsius: 21 }),
    ]);
    const counted: string[] = [];
    Object.assign(client, {
      countTokens: (text: string) => {
        counted.push(text);
        return Math.ceil(text.length / 3);
      },
    });
    const agent = defineAgent({ model: client, tools: [weather], output: { format: 'json' } });
    expect((await run(agent, 'Paris?')).success).toBe(true);
    expect((await run(agent, 'Rome?')).success).toBe(true);
    expect(client.requests[1]!.tools.find((t) => t.name === 'get_weather')).toBe(
      client.requests[0]!.tools.find((t) => t.name === 'get_weather'),
    );
    expect(counted.filter((text) => text.includes('The current weather in a city'))).toHaveLength(1);
  });

  test("a tool's signal is aborted when its timeout passes, even if the tool reads it late", async () => {
    const seen: boolean[] = [];
    const slow = tool({
      name: 'slow',
      description: 'Takes its time',
      parameters: { type: 'object', properties: {} },
      execute: async (_args, context) => {
        await new Promise((resolve) => setTimeout(resolve, 300));
        seen.push(context.signal.aborted);
        return 'late';
      },
    });
    const watched = tool({
      name: 'watched',
      description: 'Reads its signal at once',
      parameters: { type: 'object', properties: {} },
      execute: (_args, context) =>
        new Promise<string>((resolve) => context.signal.addEventListener('abort', () => resolve('stopped'))),
    });
    const client = scriptedModel([
      toolCall('slow', {}),
      toolCall('watched', {}),
      finalReport('done', { format: 'text' }),
    ]);
    const agent = defineAgent({
      model: client,
      tools: [slow, watched],
      toolTimeoutMs: 100,
      output: { format: 'text' },
    });
    const result = await run(agent, 'go');
    expect(result.success).toBe(true);
    expect(toolMessages(client.requests[1]!)[0]).toContain('no answer within 100 ms');
    expect(toolMessages(client.requests[2]!)[1]).toContain('no answer within 100 ms');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(seen).toEqual([true]);
  });

  test('an invalid call never reaches execute: the model is told what was wrong, and calls again', async () => {
    const seen: unknown[] = [];
    const strict = tool({
      name: 'lookup',
      description: 'Looks a key up',
      parameters: z.object({ key: z.string().min(2) }),
      execute: ({ key }) => {
        seen.push(key);
        return `value of ${key}`;
      },
    });
    const client = scriptedModel([
      toolCall('lookup', { key: 7 }),
      toolCall('lookup', { key: 'ab' }),
      finalReport('done'),
    ]);
    const result = await run(defineAgent({ model: client, tools: [strict] }), 'Look up ab');
    expect(result.success).toBe(true);
    expect(seen).toEqual(['ab']);
    const [refusal] = toolMessages(client.requests[1]!);
    expect(refusal).toMatch(/^\(tool failed: invalid arguments for "lookup": key: .*string.*call it again/);
    expect(toolMessages(client.requests[2]!).at(-1)).toBe('value of ab');
  });

  test('a JSON Schema is validated with the project Ajv, and a throwing tool is an error message, not a crash', async () => {
    const add = tool({
      name: 'add',
      description: 'Adds two numbers',
      parameters: {
        type: 'object',
        properties: { a: { type: 'number' }, b: { type: 'number' } },
        required: ['a', 'b'],
        additionalProperties: false,
      },
      execute: ({ a, b }) => {
        if (a === 0) throw new Error('zero is not allowed here');
        return String(a + b);
      },
    });
    const client = scriptedModel([
      toolCall('add', { a: 1 }),
      toolCall('add', { a: 0, b: 1 }),
      toolCall('add', { a: 1, b: 2 }),
      finalReport('3'),
    ]);
    const result = await run(defineAgent({ model: client, tools: [add] }), 'Add 1 and 2');
    expect(result.success).toBe(true);
    const messages = toolMessages(client.requests[3]!);
    expect(messages[0]).toMatch(/invalid arguments for "add": \/: must have required property 'b'/);
    expect(messages[1]).toBe('(tool failed: zero is not allowed here)');
    expect(messages[2]).toBe('3');
  });

  test('tools and ToolProviders mixed; history, onEvent and a client given as a target', async () => {
    const provider = memoryTools('mem', { recall: () => 'remembered' });
    const client = scriptedModel([toolCall('recall'), text('thinking'), finalReport('ok')]);
    const history: ConversationMessage[] = [
      { role: 'user', content: 'earlier question' },
      { role: 'assistant', content: 'earlier answer' },
    ];
    const events: AgentEvent['type'][] = [];
    const agent = defineAgent({ models: [{ client, contextWindow: 64_000 }], tools: [weather, provider] });
    const result = await run(
      agent,
      { prompt: 'Now this', history },
      { onEvent: (event) => events.push(event.type) },
    );
    expect(result.success).toBe(true);
    expect(client.requests[0]!.tools.map((t) => t.name).slice(0, 2)).toEqual(['get_weather', 'recall']);
    expect(client.requests[0]!.messages.slice(0, 3).map((m) => m.content)).toEqual([
      'earlier question',
      'earlier answer',
      'Now this',
    ]);
    expect(provider.calls).toEqual([{ name: 'recall', arguments: {} }]);
    expect(events).toContain('final_report');
    expect(events.at(-1)).toBe('op_tree');
  });

  test('a failed run narrows to error; createAgentSession takes the same agent for stop control', async () => {
    const agent = defineAgent({ model: scriptedModel([{ error: { kind: 'auth' } }]), maxRetries: 1 });
    const result = await run(agent, 'x');
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.error).toMatch(/auth/);
    const session = createAgentSession({ ...defineAgent({ model: scriptedModel([]) }), prompt: 'x' });
    session.stop('abort');
    expect((await session.run()).exitCode).toBe('EXIT-ABORTED');
  });
});

describe('mistakes get clear errors at definition', () => {
  test('defineAgent names every problem and what is allowed', () => {
    expect(() => defineAgent({})).toThrow(/model must be a ModelClient .* or models a non-empty list/);
    let thrown: unknown;
    try {
      defineAgent({
        model: 'openai/gpt-4.1-mini' as never,
        maxTurns: 0,
        output: { format: 'html' as never },
      });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    const error = thrown as ConfigError;
    expect(error.message).toMatch(
      /^invalid agent config: model is the string "openai\/gpt-4.1-mini": @agent\/core takes a ModelClient; make one with model\("openai\/gpt-4.1-mini"\) of @agent\/providers; output.format must be one of json, .*, got "html"; maxTurns must be a positive integer, got 0$/,
    );
    expect(error.problems.map((p) => [p.field, p.value])).toEqual([
      ['model', 'openai/gpt-4.1-mini'],
      ['output.format', 'html'],
      ['maxTurns', 0],
    ]);
    expect(() => defineAgent({ model: scriptedModel([]), tools: [{ name: 'x' } as never] })).toThrow(
      /tools\[0\] must be a tool\(\{ name, description, parameters, execute \}\) or a ToolProvider/,
    );
    const agent = defineAgent({ model: scriptedModel([]) });
    expect(Object.isFrozen(agent)).toBe(true);
  });

  test('topK and repeatPenalty are checked like the other sampling settings', () => {
    const model = scriptedModel([]);
    expect(() => defineAgent({ model, topK: 40, repeatPenalty: 1.1 })).not.toThrow();
    let thrown: unknown;
    try {
      defineAgent({ model, topK: 2.5, repeatPenalty: 0 });
    } catch (error) {
      thrown = error;
    }
    expect((thrown as ConfigError).problems.map((p) => [p.field, p.value, p.allowed])).toEqual([
      ['topK', 2.5, 'a positive integer'],
      ['repeatPenalty', 0, 'a number above 0 and at most 2 (1 = no penalty)'],
    ]);
  });

  test('tool() refuses a bad name, a broken JSON Schema and a Standard Schema that cannot give JSON Schema', () => {
    const execute = () => '';
    expect(() => tool({ name: 'x y', description: '', parameters: {}, execute })).toThrow(ConfigError);
    expect(() => tool({ name: 'has space', description: '', parameters: {}, execute })).toThrow(
      /name must be 1-64 letters, digits/,
    );
    expect(() => tool({ name: 'bad', description: '', parameters: { type: 'banana' }, execute })).toThrow(
      /tool "bad": parameters: not a usable JSON Schema/,
    );
    const validateOnly = {
      '~standard': { version: 1, vendor: 'oldlib', validate: (value: unknown) => ({ value }) },
    } as const;
    expect(() => tool({ name: 'old', description: '', parameters: validateOnly, execute })).toThrow(
      /tool "old": parameters is a oldlib schema that cannot give a JSON Schema for the model \(no ~standard.jsonSchema\)/,
    );
  });

  test('an output schema that cannot be converted ends the run before any model call', async () => {
    const client = scriptedModel([]);
    const validateOnly = {
      '~standard': { version: 1, vendor: 'oldlib', validate: (value: unknown) => ({ value }) },
    };
    const result = await run(
      { model: client, output: { format: 'json', schema: validateOnly as never } },
      'x',
    );
    expect(result.exitCode).toBe('EXIT-CONFIGURATION');
    expect(result.success || result.error).toMatch(
      /output.schema is a oldlib schema that cannot give a JSON Schema/,
    );
    expect(client.calls).toBe(0);
  });
});
