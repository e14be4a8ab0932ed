import { createRequire } from 'node:module';
import { Script } from 'node:vm';
import type { ValidateFunction } from 'ajv';
import { re2RegExpOnFirstTest } from '../re2-engine.js';

const require = createRequire(import.meta.url);

/** The modules Ajv's standalone code may load: its small runtime helpers and the format checks. */
const RUNTIME_MODULE = /^(?:ajv\/dist\/runtime\/[a-z0-9_]+|ajv-formats\/dist\/formats)$/;

function runtimeRequire(id: string): unknown {
  if (!RUNTIME_MODULE.test(id)) {
    throw new Error(`a generated validator asked for ${id}, which is not one of Ajv's runtime modules`);
  }
  return require(id);
}

/**
 * The validator from Ajv's standalone code made in the worker thread (`generatedCode`): the
 * code runs as a function body given `module`, a `require` limited to Ajv's runtime modules,
 * and the RE2 engine (each pattern compiled on its first test, within the pattern budget).
 * With `cachedData` (V8's code cache, made by the worker after it ran the validator once) the
 * event loop neither parses nor compiles the code: for a 64 KB schema's 800 KB of code that is
 * ~1 ms instead of ~170 ms. Without it, or if V8 rejects it, the code is compiled here.
 */
export function loadValidator(
  code: string,
  cachedData?: Uint8Array,
): { validate: ValidateFunction; script: Script } {
  const script = new Script(`(function (module, require, re2RegExp) {${code}\n})`, {
    filename: 'agent-schema-validator.js',
    ...(cachedData === undefined ? {} : { cachedData }),
  });
  const module = { exports: undefined as unknown };
  (script.runInThisContext() as (...args: unknown[]) => void)(module, runtimeRequire, re2RegExpOnFirstTest);
  if (typeof module.exports !== 'function') throw new Error('the generated validator exported no function');
  return { validate: module.exports as ValidateFunction, script };
}

/** V8's code cache for `code`, with the validator's own function compiled (run once on `{}`). */
export function validatorCodeCache(code: string): Uint8Array {
  const { validate, script } = loadValidator(code);
  validate({});
  return script.createCachedData();
}
