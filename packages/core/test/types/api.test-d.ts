import type { AgentResult, FinalReport } from '@agent/protocol';
import { scriptedModel } from '@agent/testkit';
import { describe, expectTypeOf, test } from 'vitest';
import { z } from 'zod';
import { defineAgent, run, type Tool, tool } from '../../src/index.js';

describe('tool() argument inference', () => {
  test('from a zod schema: the output type, defaults applied', () => {
    tool({
      name: 'weather',
      description: '',
      parameters: z.object({
        city: z.string(),
        days: z.number().optional(),
        unit: z.enum(['C', 'F']).default('C'),
      }),
      execute: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ city: string; days?: number | undefined; unit: 'C' | 'F' }>();
        return '';
      },
    });
  });

  test('from a JSON Schema literal: required keys, optional keys, enums, arrays', () => {
    const made = tool({
      name: 'search',
      description: '',
      parameters: {
        type: 'object',
        properties: {
          query: { type: 'string' },
          limit: { type: 'integer' },
          mode: { enum: ['fast', 'deep'] },
          tags: { type: 'array', items: { type: 'string' } },
        },
        required: ['query', 'mode'],
      },
      execute: (args) => {
        expectTypeOf(args).toEqualTypeOf<{
          query: string;
          mode: 'fast' | 'deep';
          limit?: number;
          tags?: string[];
        }>();
        return args.query;
      },
    });
    expectTypeOf(made).toExtend<Tool<{ query: string; mode: 'fast' | 'deep' }, string>>();
  });

  test('a JSON Schema typed only as an object gives a record; a wrong use does not compile', () => {
    const schema: Record<string, unknown> = { type: 'object' };
    tool({
      name: 'any',
      description: '',
      parameters: schema,
      execute: (args) => {
        expectTypeOf(args).toEqualTypeOf<Record<string, unknown>>();
      },
    });
    tool({
      name: 'typed',
      description: '',
      parameters: z.object({ n: z.number() }),
      // @ts-expect-error n is a number, not a string
      execute: (args: { n: string }) => args.n,
    });
  });
});

describe('AgentResult narrowing', () => {
  test('success gives finalReport; failure gives error', async () => {
    const result = await run(defineAgent({ model: scriptedModel([]) }), 'x');
    expectTypeOf(result).toEqualTypeOf<AgentResult>();
    if (result.success) {
      expectTypeOf(result.finalReport).toEqualTypeOf<FinalReport>();
      expectTypeOf(result.error).toEqualTypeOf<undefined>();
    } else {
      expectTypeOf(result.error).toEqualTypeOf<string>();
      expectTypeOf(result.finalReport).toEqualTypeOf<FinalReport | undefined>();
    }
  });

  test('tools mix tool() results and providers; a model string is not a target in core', () => {
    const t = tool({ name: 'a', description: '', parameters: z.object({ x: z.string() }), execute: () => 1 });
    defineAgent({
      model: scriptedModel([]),
      tools: [
        t,
        { id: 'p', listTools: async () => [], execute: async () => ({ ok: true as const, text: '' }) },
      ],
    });
    // @ts-expect-error core takes a ModelClient; strings need model() of @agent/providers
    defineAgent({ model: 'openai/gpt-4.1-mini' });
  });
});
