import { createRequire } from 'node:module';
import { type AjvFactoryOptions, createAjv } from './ajv-factory.js';

const require = createRequire(import.meta.url);

/** The entry the generated modules import their helpers from: it loads no Ajv. */
export const STANDALONE_RUNTIME = '@agent/schema/standalone';

/** Ajv's runtime helpers generated code may call, by the name the runtime entry exports them. */
const RUNTIME_HELPERS: Record<string, string> = {
  'require("ajv/dist/runtime/ucs2length").default': 'ucs2length',
  'require("ajv/dist/runtime/equal").default': 'equal',
};

/**
 * An ES module of validators for draft-07 `schemas`, compiled now by this package's one Ajv
 * factory (the same settings as `createAjv`, RE2 patterns included), one export per name:
 * generated at build time, a process that runs them loads and compiles no Ajv. Helpers come
 * from `@agent/schema/standalone`; a schema needing any other Ajv runtime code is refused.
 */
export function standaloneValidators(
  schemas: Readonly<Record<string, Record<string, unknown>>>,
  options: Omit<AjvFactoryOptions, 'standalone'> = {},
): string {
  const ajv = createAjv('draft-07', { ...options, standalone: true });
  const refs: Record<string, string> = {};
  for (const [name, schema] of Object.entries(schemas)) {
    ajv.addSchema(schema, name);
    refs[name] = name;
  }
  const standaloneCode = require('ajv/dist/standalone').default as (
    instance: typeof ajv,
    refs: Record<string, string>,
  ) => string;
  let code = standaloneCode(ajv, refs);
  const used = new Set(['re2RegExp']);
  for (const [call, name] of Object.entries(RUNTIME_HELPERS)) {
    if (!code.includes(call)) continue;
    code = code.replaceAll(call, name);
    used.add(name);
  }
  const left = /require\([^)]*\)/.exec(code);
  if (left !== null)
    throw new Error(
      `standaloneValidators: generated code needs ${left[0]}, which ${STANDALONE_RUNTIME} does not export`,
    );
  const imports = `import { ${[...used].sort().join(', ')} } from '${STANDALONE_RUNTIME}';`;
  return `${imports}\n${code.replace(/^"use strict";/, '')}\n`;
}
