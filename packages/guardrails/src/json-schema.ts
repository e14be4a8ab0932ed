import { formatAjvErrors } from '@agent/final-report';
import type { Guardrail, GuardrailSubject, GuardrailVerdict } from '@agent/protocol';
import { compileSchema } from '@agent/schema';
import { type BuiltinOptions, build, checkBase, configError, oneOf, resolvePhases } from './options.js';
import { subjectName } from './subject.js';

export type JsonSchemaAction = 'block' | 'deny';

export const JSON_SCHEMA_ACTIONS: readonly JsonSchemaAction[] = ['block', 'deny'];

export interface JsonSchemaGuardrailOptions extends BuiltinOptions {
  /**
   * A JSON Schema (draft-07 unless `$schema` says 2019-09 or 2020-12), checked as tool schemas
   * are: its patterns run on RE2, its size and nesting are bounded.
   */
  schema: Record<string, unknown> | boolean;
  /** On a mismatch: `block` (a trip, the default) or `deny` (`tool` only: the call does not run). */
  action?: JsonSchemaAction;
}

/**
 * A guardrail that validates against a JSON Schema: a tool call's arguments object (`on: tool`,
 * phase `arguments`), or the report's content (`on: output`, phase `report`): a JSON report's
 * value, or a text report parsed as JSON (text that is not JSON is a mismatch). The reason
 * lists where and how the value misses the schema, never the values themselves.
 */
export function jsonSchemaGuardrail(options: JsonSchemaGuardrailOptions): Guardrail {
  const name = checkBase('json-schema', options);
  const compiled = compileSchema(options.schema);
  if (!compiled.ok)
    throw configError(name, {
      field: 'schema',
      value: options.schema,
      allowed: 'a usable JSON Schema',
      message: `schema: ${compiled.error}`,
    });
  const action = oneOf(name, 'action', options.action ?? 'block', JSON_SCHEMA_ACTIONS);
  if (action === 'deny' && options.on !== 'tool')
    throw configError(name, { field: 'action', value: action, allowed: '`deny` only with `on: tool`' });
  const phases = resolvePhases(
    name,
    options,
    ['arguments', 'report'],
    'it checks tool arguments or the whole report',
  );
  const { validate } = compiled;
  return build(name, options, phases, (subject): GuardrailVerdict => {
    const where = subjectName(subject);
    const value = checkedValue(subject);
    if (value === NOT_JSON) return { verdict: action, reason: `${where} is not JSON` };
    const errors = validate(value);
    if (errors.length === 0) return { verdict: 'pass' };
    // Without the value, the lines name places and rules, never what the value held.
    return {
      verdict: action,
      reason: `${where} does not match the schema: ${formatAjvErrors(errors).join('; ')}`,
    };
  });
}

const NOT_JSON = Symbol('not JSON');

function checkedValue(subject: GuardrailSubject): unknown {
  if (subject.phase === 'arguments') return subject.arguments;
  if (subject.phase === 'report' && subject.report.content_json !== undefined)
    return subject.report.content_json;
  try {
    return JSON.parse(subject.text);
  } catch {
    return NOT_JSON;
  }
}
