import type { RecordedRequest } from '@agent/testkit';
import { finalReport, scriptedModel, toolCall } from '@agent/testkit';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as v from 'valibot';
import { describe, expect, test } from 'vitest';
import { defineAgent, run, tool } from '../../src/index.js';

// Standard Schema beyond zod: a library that implements Standard Schema (validation) and Standard
// JSON Schema (the JSON Schema the model sees) works as `parameters` and as an output schema.

/** The tool messages the model got, in order. */
function toolMessages(request: RecordedRequest): string[] {
  return request.messages.filter((m) => m.role === 'tool').map((m) => m.content);
}

const libraries = [
  {
    name: 'valibot (toStandardJsonSchema of @valibot/to-json-schema)',
    parameters: toStandardJsonSchema(
      v.object({ city: v.string(), days: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1)), 1) }),
    ),
    output: toStandardJsonSchema(v.object({ city: v.string(), celsius: v.number() })),
  },
  {
    name: 'arktype',
    parameters: type({ city: 'string', days: 'number.integer >= 1 = 1' }),
    output: type({ city: 'string', celsius: 'number' }),
  },
];

describe.each(libraries)('$name', ({ parameters, output }) => {
  test('tool({ parameters }): the model sees its JSON Schema, a bad call is refused, execute gets the parsed arguments', async () => {
    const seen: { city: string; days: number }[] = [];
    const forecast = tool({
      name: 'forecast',
      description: 'The forecast for a city',
      parameters,
      execute: (args) => {
        // Typed from the schema: a misspelt field would not compile.
        seen.push({ city: args.city, days: args.days });
        return { city: args.city, days: args.days, celsius: 18 };
      },
    });
    const client = scriptedModel([
      toolCall('forecast', { city: 42 }),
      toolCall('forecast', { city: 'Paris' }),
      finalReport({ city: 'Paris', celsius: 18 }),
    ]);
    const result = await run(
      defineAgent({ model: client, tools: [forecast], output: { format: 'json', schema: output } }),
      'How warm will Paris be?',
    );
    expect(result.success).toBe(true);
    if (!result.success) return;
    expect(result.finalReport.content_json).toEqual({ city: 'Paris', celsius: 18 });
    // The JSON Schema the library made reached the model as the tool's input schema.
    expect(client.requests[0]!.tools.find((t) => t.name === 'forecast')?.inputSchema).toMatchObject({
      type: 'object',
      properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1 } },
      required: ['city'],
    });
    // The bad call never ran: the model was told what was wrong; the good one ran with the default.
    expect(toolMessages(client.requests[1]!)[0]).toMatch(
      /^\(tool failed: invalid arguments for "forecast": city: /,
    );
    expect(seen).toEqual([{ city: 'Paris', days: 1 }]);
    expect(toolMessages(client.requests[2]!).at(-1)).toBe('{"city":"Paris","days":1,"celsius":18}');
    // The output schema reached the model in the library's JSON Schema form.
    expect(client.requests[0]!.messages.at(-1)?.content).toContain('"celsius":{"type":"number"}');
  });

  test('a report off the output schema is refused and the model is told why', async () => {
    const client = scriptedModel([
      finalReport({ city: 'Paris', celsius: 'warm' }),
      finalReport({ city: 'Paris', celsius: 18 }),
    ]);
    const result = await run(
      defineAgent({ model: client, output: { format: 'json', schema: output } }),
      'Paris?',
    );
    expect(result.success).toBe(true);
    const told = client.requests[1]!.messages.map((m) => (typeof m.content === 'string' ? m.content : ''));
    expect(told).toContainEqual(expect.stringContaining('- /celsius: must be number (got "warm")'));
  });
});
