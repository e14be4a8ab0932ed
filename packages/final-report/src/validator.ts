import type { JsonSchema } from '@agent/protocol';
import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import * as formatsModule from 'ajv-formats';

type Draft = '07' | '2019' | '2020';
type AnyAjv = Ajv | Ajv2019 | Ajv2020;

/** `ajv-formats` is CommonJS; under NodeNext its plugin sits on `default` (or `default.default`). */
type FormatsPlugin = (ajv: AnyAjv) => unknown;
function formatsPlugin(): FormatsPlugin {
  const mod = formatsModule as unknown as { default?: unknown };
  const first = mod.default as { default?: unknown } | FormatsPlugin | undefined;
  if (typeof first === 'function') return first as FormatsPlugin;
  return first?.default as FormatsPlugin;
}

const OPTIONS: Options = {
  allErrors: true,
  strict: false,
  // Never register schemas by `$id`: two callers' schemas may share one.
  addUsedSchema: false,
};

const instances = new Map<Draft, AnyAjv>();

function ajvFor(draft: Draft): AnyAjv {
  let ajv = instances.get(draft);
  if (ajv === undefined) {
    ajv =
      draft === '2020' ? new Ajv2020(OPTIONS) : draft === '2019' ? new Ajv2019(OPTIONS) : new Ajv(OPTIONS);
    formatsPlugin()(ajv);
    instances.set(draft, ajv);
  }
  return ajv;
}

function draftOf(schema: JsonSchema): Draft {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (declared.includes('2020-12')) return '2020';
  if (declared.includes('2019-09')) return '2019';
  return '07';
}

export type CompiledValidator = (value: unknown) => readonly ErrorObject[];

export type CompileResult = { ok: true; validate: CompiledValidator } | { ok: false; error: string };

const cache = new WeakMap<object, CompileResult>();

/**
 * A validator for a JSON Schema, compiled once per schema object (a WeakMap cache keyed
 * by the schema object itself). Draft 2020-12 and 2019-09 are picked by `$schema`;
 * anything else is draft-07. `allErrors`, `strict: false`, formats from `ajv-formats`.
 */
export function compileSchema(schema: JsonSchema): CompileResult {
  const cached = cache.get(schema);
  if (cached !== undefined) return cached;
  let result: CompileResult;
  try {
    const fn: ValidateFunction = ajvFor(draftOf(schema)).compile(schema);
    result = { ok: true, validate: (value) => (fn(value) ? [] : [...(fn.errors ?? [])]) };
  } catch (error) {
    result = { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  cache.set(schema, result);
  return result;
}
