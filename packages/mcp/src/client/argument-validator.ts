import {
  type AnyAjv,
  createAjv,
  type ErrorObject,
  type SchemaDraft,
  schemaDraft,
  schemaShapeProblems,
  type ValidateFunction,
} from '@agent/schema';

const MAX_ERRORS_SHOWN = 8;

/** Outcome of checking a call's arguments against its tool's input schema. */
export type ArgumentCheck = { ok: true } | { ok: false; message: string };

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string')
    return `string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value)}`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

function valueAt(root: unknown, pointer: string): unknown {
  let current = root;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

function describeError(error: ErrorObject, args: unknown): string {
  const where = error.instancePath === '' ? 'arguments' : `"${error.instancePath}"`;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `${where}: missing required property "${String(params.missingProperty)}"`;
    case 'additionalProperties':
      return `${where}: unknown property "${String(params.additionalProperty)}" is not allowed`;
    case 'enum':
      return `${where}: must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}, got ${describeValue(valueAt(args, error.instancePath))}`;
    case 'const':
      return `${where}: must be ${JSON.stringify(params.allowedValue)}, got ${describeValue(valueAt(args, error.instancePath))}`;
    case 'type':
      return `${where}: must be ${String(params.type)}, got ${describeValue(valueAt(args, error.instancePath))}`;
    default:
      return `${where}: ${error.message ?? `fails "${error.keyword}"`}`;
  }
}

function summariseSchema(schema: Record<string, unknown>): string {
  const properties = schema.properties;
  if (!properties || typeof properties !== 'object') return '';
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const parts = Object.entries(properties as Record<string, Record<string, unknown>>).map(([key, prop]) => {
    const type = Array.isArray(prop?.enum)
      ? `one of ${prop.enum.map((v) => JSON.stringify(v)).join('|')}`
      : typeof prop?.type === 'string'
        ? prop.type
        : Array.isArray(prop?.type)
          ? prop.type.join('|')
          : 'any';
    return `${key} (${type}${required.has(key) ? ', required' : ''})`;
  });
  return parts.length > 0 ? `Allowed properties: ${parts.join(', ')}.` : 'The tool takes no properties.';
}

/**
 * Checks tool-call arguments against each tool's JSON Schema, compiling a schema once per tool.
 * A schema AJV cannot compile disables the check for that tool (the server still validates);
 * so does one too deep or too large for the checks of `@agent/schema`, or with a `pattern`
 * RE2 cannot run (patterns never run on a backtracking engine).
 */
export class ArgumentValidator {
  private readonly ajvs = new Map<SchemaDraft, AnyAjv>();
  private readonly compiled = new Map<string, { schema: unknown; validate: ValidateFunction | null }>();

  /** Forgets compiled schemas (after the server's tool list changed). */
  reset(): void {
    this.compiled.clear();
  }

  private validatorFor(tool: string, schema: Record<string, unknown>): ValidateFunction | null {
    const cached = this.compiled.get(tool);
    if (cached && cached.schema === schema) return cached.validate;
    // A server's schema in a draft we do not know is read as draft-07, without meta-schema checks.
    const draft = schemaDraft(schema) ?? 'draft-07';
    let ajv = this.ajvs.get(draft);
    if (!ajv) {
      ajv = createAjv(draft, { validateSchema: false });
      this.ajvs.set(draft, ajv);
    }
    let validate: ValidateFunction | null = null;
    // Too deep or too large for Ajv (which recurses), or a pattern RE2 cannot run: no check here.
    const { $schema: _ignored, ...rest } = schema;
    if (schemaShapeProblems(rest).length === 0) {
      try {
        validate = ajv.compile(rest);
      } catch {
        validate = null;
      }
    }
    this.compiled.set(tool, { schema, validate });
    return validate;
  }

  /** `exposedName` appears in the message the model reads; `tool` keys the compiled schema. */
  check(tool: string, exposedName: string, schema: Record<string, unknown>, args: unknown): ArgumentCheck {
    const validate = this.validatorFor(tool, schema);
    if (!validate || validate(args)) return { ok: true };
    const errors = (validate.errors ?? [])
      .slice(0, MAX_ERRORS_SHOWN)
      .map((error) => `- ${describeError(error, args)}`);
    const more = (validate.errors?.length ?? 0) - errors.length;
    if (more > 0) errors.push(`- ... and ${more} more`);
    const summary = summariseSchema(schema);
    return {
      ok: false,
      message: `Invalid arguments for tool "${exposedName}":\n${errors.join('\n')}${summary ? `\n${summary}` : ''}`,
    };
  }
}
