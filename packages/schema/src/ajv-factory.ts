import { createRequire } from 'node:module';
import type { Ajv, Options } from 'ajv';
import type { Ajv2019 } from 'ajv/dist/2019.js';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { re2RegExp } from './re2-engine.js';

// Ajv and ajv-formats (CommonJS) are loaded by the first `createAjv`, not with this package: a
// process that only runs validators generated ahead (`standaloneValidators`) never loads them.
const require = createRequire(import.meta.url);

/** The JSON Schema dialects Ajv runs here. */
export type SchemaDraft = 'draft-07' | '2019-09' | '2020-12';
export type AnyAjv = Ajv | Ajv2019 | Ajv2020;

export const SUPPORTED_DRAFTS: readonly SchemaDraft[] = ['draft-07', '2019-09', '2020-12'];

/** `ajv-formats` is CommonJS; its plugin is the module itself or sits on `default`. */
type FormatsPlugin = (ajv: AnyAjv) => unknown;
function formatsPlugin(): FormatsPlugin {
  const mod = require('ajv-formats') as FormatsPlugin | { default: FormatsPlugin };
  return typeof mod === 'function' ? mod : mod.default;
}

/** The RE2 engine as generated code names it: `standaloneValidators` imports `re2RegExp`. */
function re2ForStandalone(esm: boolean): Options['code'] {
  return { source: true, esm, regExp: Object.assign(re2RegExp.bind(undefined), { code: 're2RegExp' }) };
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
  /** Inline `$ref`s to ref-free schemas into the caller's code (Ajv's default, true). */
  inlineRefs?: boolean;
  /**
   * Keep each validator's source for Ajv's standalone code: `true` for ES modules
   * (`standaloneValidators`, build time), `'script'` for CommonJS-style code run with
   * `new Function` (`compileSchemaOffThread`, generated in a worker thread).
   */
  standalone?: boolean | 'script';
}

/**
 * The one way this project makes an Ajv instance: the draft's class, `allErrors`,
 * `strict: false`, formats from `ajv-formats`, `pattern` / `patternProperties` on RE2
 * (linear time; a pattern RE2 cannot run fails the compile with a `SchemaPatternError`),
 * and no registering of schemas by `$id` (two callers' schemas may share one). Ajv itself is
 * loaded by the first call.
 */
export function createAjv(draft: SchemaDraft = 'draft-07', options: AjvFactoryOptions = {}): AnyAjv {
  const settings: Options = {
    allErrors: true,
    strict: false,
    addUsedSchema: false,
    code:
      options.standalone === undefined || options.standalone === false
        ? { regExp: re2RegExp }
        : re2ForStandalone(options.standalone === true),
    ...(options.verbose === true ? { verbose: true } : {}),
    ...(options.validateSchema === false ? { validateSchema: false } : {}),
    ...(options.inlineRefs === false ? { inlineRefs: false } : {}),
  };
  const ajv =
    draft === '2020-12'
      ? new (require('ajv/dist/2020') as { Ajv2020: typeof Ajv2020 }).Ajv2020(settings)
      : draft === '2019-09'
        ? new (require('ajv/dist/2019') as { Ajv2019: typeof Ajv2019 }).Ajv2019(settings)
        : new (require('ajv') as { Ajv: typeof Ajv }).Ajv(settings);
  formatsPlugin()(ajv);
  return ajv;
}
