import {
  jsonSchemaGuardrail,
  maxLengthGuardrail,
  piiGuardrail,
  regexGuardrail,
  wordsGuardrail,
} from '@agent/guardrails';
import type { Guardrail } from '@agent/protocol';
import type { GuardrailConfig } from './read.js';

/**
 * A built-in kind's guardrail (`@agent/guardrails`) from its checked config: the common fields
 * and the kind's options as written. Throws the factory's error for options it refuses.
 */
export function builtinGuardrail(config: Exclude<GuardrailConfig, { kind: 'model' }>): Guardrail {
  switch (config.kind) {
    case 'regex': {
      const { kind: _kind, line: _line, ...options } = config;
      return regexGuardrail(options);
    }
    case 'words': {
      const { kind: _kind, line: _line, ...options } = config;
      return wordsGuardrail(options);
    }
    case 'pii': {
      const { kind: _kind, line: _line, ...options } = config;
      return piiGuardrail(options);
    }
    case 'max_length': {
      const { kind: _kind, line: _line, ...options } = config;
      return maxLengthGuardrail(options);
    }
    case 'json_schema': {
      const { kind: _kind, line: _line, ...options } = config;
      return jsonSchemaGuardrail(options);
    }
  }
}
