import { Ajv, type Options } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import * as formatsModule from 'ajv-formats';
import { re2RegExp } from './re2-engine.js';

/** The JSON Schema dialects Ajv runs here. */
export type SchemaDraft = 'draft-07' | '2019-09' | '2020-12';
export type AnyAjv = Ajv | Ajv2019 | Ajv2020;

export const SUPPORTED_DRAFTS: readonly SchemaDraft[] = ['draft-07', '2019-09', '2020-12'];

/** `ajv-formats` is CommonJS; under NodeNext its plugin sits on `default` (or `default.default`). */
type FormatsPlugin = (ajv: AnyAjv) => unknown;
function formatsPlugin(): FormatsPlugin {
  const mod = formatsModule as unknown as { default?: unknown };
  const first = mod.default as { default?: unknown } | FormatsPlugin | undefined;
  if (typeof first === 'function') return first as FormatsPlugin;
  return first?.default as FormatsPlugin;
}

/**
 * The draft a schema declares with `$schema`: 2020-12 and 2019-09 by their URIs, draft-07
 * when it says draft-07 or says nothing. Any other `$schema` is `undefined` (not supported).
 */
export function schemaDraft(schema: unknown): SchemaDraft | undefined {
  if (typeof schema !== 'object' || schema === null) return 'draft-07';
  const declared = (schema as { $schema?: unknown }).$schema;
  if (declared === undefined) return 'draft-07';
  if (typeof declared !== 'string') return undefined;
  if (declared.includes('2020-12')) return '2020-12';
  if (declared.includes('2019-09')) return '2019-09';
  if (declared.includes('draft-07')) return 'draft-07';
  return undefined;
}

export interface AjvFactoryOptions {
  /** Keep the failing value and schema on each error (`error.data`, `error.parentSchema`). */
  verbose?: boolean;
  /** Check schemas against the draft's meta-schema when compiling (default true). */
  validateSchema?: boolean;
}

/**
 * The one way this project makes an Ajv instance: the draft's class, `allErrors`,
 * `strict: false`, formats from `ajv-formats`, `pattern` / `patternProperties` on RE2
 * (linear time; a pattern RE2 cannot run fails the compile with a `SchemaPatternError`),
 * and no registering of schemas by `$id` (two callers' schemas may share one).
 */
export function createAjv(draft: SchemaDraft = 'draft-07', options: AjvFactoryOptions = {}): AnyAjv {
  const settings: Options = {
    allErrors: true,
    strict: false,
    addUsedSchema: false,
    code: { regExp: re2RegExp },
    ...(options.verbose === true ? { verbose: true } : {}),
    ...(options.validateSchema === false ? { validateSchema: false } : {}),
  };
  const ajv =
    draft === '2020-12'
      ? new Ajv2020(settings)
      : draft === '2019-09'
        ? new Ajv2019(settings)
        : new Ajv(settings);
  formatsPlugin()(ajv);
  return ajv;
}
