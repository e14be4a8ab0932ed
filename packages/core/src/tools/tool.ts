import { formatAjvErrors } from '@agent/final-report';
import {
  ConfigError,
  type JsonSchema,
  type ToolCallRequest,
  type ToolDefinition,
  type ToolExecuteOptions,
  type ToolProvider,
  type ToolResult,
} from '@agent/protocol';
import { compileSchema } from '@agent/schema';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { FromJsonSchema } from './json-schema-type.js';
import { ownGetter } from './own-getter.js';
import { describeIssues, isStandardSchema, jsonSchemaOf } from './schema-input.js';

/** What `parameters` takes: any Standard Schema (zod 4, valibot, arktype), or a JSON Schema object. */
export type ToolParameters = StandardSchemaV1 | JsonSchema;

/**
 * The arguments `execute` gets for `parameters`: a Standard Schema's output type, the type a
 * JSON Schema literal describes (objects, required keys, strings, numbers, booleans, arrays,
 * enums, const), else `Record<string, unknown>`.
 */
export type InferToolArgs<P> = P extends StandardSchemaV1
  ? StandardSchemaV1.InferOutput<P>
  : unknown extends FromJsonSchema<P>
    ? Record<string, unknown>
    : FromJsonSchema<P>;

/** What `execute` gets besides the arguments. */
export interface ToolContext {
  /** Aborted when the call times out (`toolTimeoutMs`) or the session is cancelled. */
  signal: AbortSignal;
  /** The model's id for this call. */
  callId: string;
  /**
   * The same for this call across a crash and resume (session, turn, call): send it to an API
   * that deduplicates (an `Idempotency-Key` header), so a call that runs again applies once.
   */
  idempotencyKey: string;
}

/** What `tool()` takes. */
export interface ToolSpec<P extends ToolParameters, R> {
  /** The name the model calls it by (letters, digits, `_` and `-`). */
  name: string;
  description: string;
  parameters: P;
  /**
   * Runs a call with validated arguments. A string goes to the model as is; any other value as
   * JSON. A throw becomes an error message to the model; the session goes on.
   */
  execute: (args: InferToolArgs<P>, context: ToolContext) => R | Promise<R>;
  /**
   * A person decides each call before it runs (`true`), or the calls this function picks
   * (it gets the arguments as the model sent them). See the `approver` run option.
   */
  needsApproval?: boolean | ((args: Record<string, unknown>) => boolean);
}

/** A tool made by `tool()`: pass it in `tools`, beside any `ToolProvider`. */
export interface Tool<Args = Record<string, unknown>, R = unknown> {
  /** Tells a tool from a `ToolProvider` in a mixed list (and lets TypeScript tell them apart too). */
  readonly kind: 'tool';
  readonly name: string;
  readonly description: string;
  /** The JSON Schema the model sees. */
  readonly inputSchema: JsonSchema;
  /** Your function, as given (callable directly in tests). */
  execute(args: Args, context: ToolContext): R | Promise<R>;
  /** As given to `tool()`. */
  readonly needsApproval?: boolean | ((args: Record<string, unknown>) => boolean);
}

/** Any tool, whatever its argument type. */
// biome-ignore lint/suspicious/noExplicitAny: the argument type of a heterogeneous tool list is unknowable
export type AnyTool = Tool<any, unknown>;

type ArgumentCheck = { ok: true; value: unknown } | { ok: false; problems: string[] };

/** Synchronous when the schema checks synchronously (a JSON Schema always does): no promise per call. */
type Validator = (args: unknown) => ArgumentCheck | Promise<ArgumentCheck>;

/** What the session needs of a tool that users do not: its validator. */
const validators = new WeakMap<object, Validator>();

const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

function jsonSchemaValidator(schema: JsonSchema, source: string): Validator {
  const compiled = compileSchema(schema);
  if (!compiled.ok) {
    throw new ConfigError({
      field: 'parameters',
      allowed: 'a usable JSON Schema',
      message: `parameters: ${compiled.error}`,
      source,
    });
  }
  return (args) => {
    const errors = compiled.validate(args);
    return errors.length === 0
      ? { ok: true, value: args }
      : { ok: false, problems: formatAjvErrors(errors, args) };
  };
}

function standardValidator(schema: StandardSchemaV1): Validator {
  return (args) => {
    const result = schema['~standard'].validate(args);
    // Any thenable a library answers with is awaited, as `await` would.
    return isThenable(result) ? Promise.resolve(result).then(standardCheck) : standardCheck(result);
  };
}

function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown }).then === 'function';
}

function standardCheck(result: StandardSchemaV1.Result<unknown>): ArgumentCheck {
  return result.issues === undefined
    ? { ok: true, value: result.value }
    : { ok: false, problems: describeIssues(result.issues) };
}

/**
 * A tool from a function: `parameters` is a Standard Schema (zod 4, valibot, arktype) or a
 * JSON Schema object, and `execute` gets the arguments typed and validated. A call whose
 * arguments do not match never reaches `execute`: the model is told what was wrong and may
 * call again. Throws a `ConfigError` for a name or schema that cannot work.
 */
export function tool<const P extends ToolParameters, R>(spec: ToolSpec<P, R>): Tool<InferToolArgs<P>, R> {
  const source = `tool "${String(spec?.name)}"`;
  if (typeof spec?.name !== 'string' || !TOOL_NAME.test(spec.name)) {
    throw new ConfigError({
      field: 'name',
      value: spec?.name,
      allowed: '1-64 letters, digits, "_" or "-"',
      source,
    });
  }
  if (typeof spec.description !== 'string')
    throw new ConfigError({ field: 'description', value: spec.description, allowed: 'a string', source });
  if (typeof spec.execute !== 'function')
    throw new ConfigError({ field: 'execute', value: spec.execute, allowed: 'a function', source });
  const needs = spec.needsApproval;
  if (needs !== undefined && typeof needs !== 'boolean' && typeof needs !== 'function')
    throw new ConfigError({
      field: 'needsApproval',
      value: needs,
      allowed: 'true, false or a function of the arguments',
      source,
    });
  const inputSchema = jsonSchemaOf(spec.parameters, 'parameters', source);
  const validate = isStandardSchema(spec.parameters)
    ? standardValidator(spec.parameters)
    : jsonSchemaValidator(inputSchema, source);
  const made: Tool<InferToolArgs<P>, R> = {
    kind: 'tool',
    name: spec.name,
    description: spec.description,
    inputSchema,
    execute: spec.execute,
    ...(needs === undefined ? {} : { needsApproval: needs }),
  };
  validators.set(made, validate);
  return Object.freeze(made);
}

/** True for a tool made by `tool()`. */
export function isTool(value: unknown): value is AnyTool {
  return typeof value === 'object' && value !== null && validators.has(value);
}

/**
 * What a tool's `execute` gets: `signal`, read only if the tool reads it (made on first read,
 * see runExternalCall), an own enumerable getter as an object literal's would be (see
 * `ownGetter`), then `callId`, then `idempotencyKey` (a getter too: hashed only when read).
 */
class FunctionToolContext implements ToolContext {
  static readonly #signal = ownGetter((self: FunctionToolContext) => self.#options.signal);
  // Read from the request only if the tool reads it: the session's request hashes it then.
  static readonly #key = ownGetter((self: FunctionToolContext) => self.#call.idempotencyKey ?? '');
  readonly #options: ToolExecuteOptions;
  readonly #call: ToolCallRequest;
  declare readonly signal: AbortSignal;
  declare readonly callId: string;
  declare readonly idempotencyKey: string;

  constructor(options: ToolExecuteOptions, call: ToolCallRequest) {
    this.#options = options;
    Object.defineProperty(this, 'signal', FunctionToolContext.#signal);
    this.#call = call;
    (this as { callId: string }).callId = call.callId;
    Object.defineProperty(this, 'idempotencyKey', FunctionToolContext.#key);
  }
}

function resultOf(value: unknown): ToolResult {
  if (typeof value === 'string') return { ok: true, text: value };
  if (value === undefined) return { ok: true, text: '' };
  return { ok: true, text: JSON.stringify(value) ?? String(value), structured: value };
}

/**
 * One definition object per tool for the whole process: sessions are made per run, and
 * estimates kept per definition (its token count) then outlive the session.
 */
const definitionByTool = new WeakMap<AnyTool, ToolDefinition>();

function definitionOf(made: AnyTool): ToolDefinition {
  let definition = definitionByTool.get(made);
  if (definition === undefined) {
    definition = { name: made.name, description: made.description, inputSchema: made.inputSchema };
    definitionByTool.set(made, definition);
  }
  return definition;
}

/** One provider for a session's `tool()`s (id `tools`, kind `function` in logs and accounting). */
export function functionToolProvider(tools: readonly AnyTool[]): ToolProvider {
  const byName = new Map(tools.map((t) => [t.name, t]));
  const definitions: ToolDefinition[] = tools.map(definitionOf);
  return {
    id: 'tools',
    kind: 'function',
    listTools: async () => definitions,
    async execute(call, options): Promise<ToolResult> {
      const found = byName.get(call.name);
      const validate = found === undefined ? undefined : validators.get(found);
      if (found === undefined || validate === undefined) {
        return { ok: false, error: { kind: 'unknown_tool', message: `unknown tool "${call.name}"` } };
      }
      const pending = validate(call.arguments);
      const checked = pending instanceof Promise ? await pending : pending;
      if (!checked.ok) {
        return {
          ok: false,
          error: {
            kind: 'invalid_arguments',
            message: `invalid arguments for "${call.name}": ${checked.problems.join('; ')}; call it again with arguments that match its schema`,
          },
        };
      }
      return resultOf(await found.execute(checked.value, new FunctionToolContext(options, call)));
    },
  };
}
