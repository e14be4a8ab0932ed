import {
  jsonSchemaGuardrail,
  maxLengthGuardrail,
  piiGuardrail,
  regexGuardrail,
  wordsGuardrail,
} from '@agent/guardrails';
import type { Guardrail } from '@agent/protocol';
import type { GuardrailConfig } from './config.js';

export type BuiltinConfig = Exclude<GuardrailConfig, { kind: 'model' }>;

/**
 * A built-in kind's guardrail (`@agent/guardrails`) from its checked config: the common fields
 * and the kind's options as written; a regex blocks and PII is redacted unless `action` says
 * otherwise. Throws the factory's `ConfigError` for options it refuses.
 */
export function builtinGuardrail(config: BuiltinConfig): Guardrail {
  switch (config.kind) {
    case 'regex': {
      const { kind: _k, line: _l, parallel, ...options } = config;
      return withParallel(regexGuardrail({ ...options, action: options.action ?? 'block' }), parallel);
    }
    case 'words': {
      const { kind: _k, line: _l, parallel, ...options } = config;
      return withParallel(wordsGuardrail(options), parallel);
    }
    case 'pii': {
      const { kind: _k, line: _l, parallel, ...options } = config;
      return withParallel(piiGuardrail({ ...options, action: options.action ?? 'redact' }), parallel);
    }
    case 'max_length': {
      const { kind: _k, line: _l, parallel, ...options } = config;
      return withParallel(maxLengthGuardrail(options), parallel);
    }
    case 'json_schema': {
      const { kind: _k, line: _l, parallel, ...options } = config;
      return withParallel(jsonSchemaGuardrail(options), parallel);
    }
  }
}

/** The factories take what every stage shares; `parallel` is the input stage's own. */
function withParallel(built: Guardrail, parallel: boolean | undefined): Guardrail {
  return parallel === undefined ? built : Object.freeze({ ...built, parallel });
}
