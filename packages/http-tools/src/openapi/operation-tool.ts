import type { RestToolDefinition } from '../types.js';
import { toJsonSchema } from './json-schema.js';
import { argumentName } from './names.js';

type Node = Record<string, unknown>;

export interface Operation {
  /** `GET /pets/{id}`: unique in the document. */
  key: string;
  method: string;
  path: string;
  op: Node;
  /** Path-level and operation-level parameters (the operation's win). */
  parameters: Node[];
}

const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const MAX_DESCRIPTION = 1024;

function describe(operation: Operation): string {
  const { op } = operation;
  const parts = [op.summary, op.description].filter(
    (s): s is string => typeof s === 'string' && s.trim() !== '',
  );
  const text = parts.length === 0 ? operation.key : [...new Set(parts.map((s) => s.trim()))].join('\n\n');
  return text.length > MAX_DESCRIPTION ? `${text.slice(0, MAX_DESCRIPTION - 3)}...` : text;
}

function jsonBody(op: Node): { schema: unknown; required: boolean; contentType: string } | undefined {
  const body = op.requestBody;
  if (!isNode(body) || !isNode(body.content)) return undefined;
  const types = Object.keys(body.content);
  const type = types.find((t) => t.includes('json')) ?? types[0];
  if (type === undefined) return undefined;
  const media = body.content[type];
  return {
    schema: isNode(media) ? media.schema : undefined,
    required: body.required === true,
    contentType: type,
  };
}

/** The object schema a tool's arguments are collected in (no prototype: any name is a plain key). */
interface Arguments {
  properties: Record<string, unknown>;
  required: string[];
}

const ORDER = ['path', 'query', 'header', 'cookie'];

/** Path, query, header and cookie parameters as arguments; returns path parameter -> argument. */
function addParameters(operation: Operation, args: Arguments, tool: RestToolDefinition): Map<string, string> {
  const pathNames = new Map<string, string>();
  const params = [...operation.parameters].sort(
    (a, b) => ORDER.indexOf(String(a.in)) - ORDER.indexOf(String(b.in)),
  );
  for (const param of params) {
    const where = String(param.in);
    if (typeof param.name !== 'string' || !ORDER.includes(where)) continue;
    let arg = argumentName(param.name);
    if (Object.hasOwn(args.properties, arg)) arg = argumentName(`${where}_${param.name}`);
    for (let n = 2; Object.hasOwn(args.properties, arg); n++)
      arg = argumentName(`${where}_${param.name}_${n}`);
    const schema = toJsonSchema(param.schema);
    if (typeof param.description === 'string' && schema.description === undefined)
      schema.description = param.description;
    args.properties[arg] = schema;
    if (param.required === true || where === 'path') args.required.push(arg);
    if (where === 'path') {
      pathNames.set(param.name, arg);
      continue;
    }
    const key =
      where === 'query' ? 'queryArguments' : where === 'header' ? 'headerArguments' : 'cookieArguments';
    const map: Record<string, string> = tool[key] ?? Object.create(null);
    map[param.name] = arg;
    tool[key] = map;
  }
  return pathNames;
}

/** The request body: its properties at the top level when they are all free, else one `body` argument. */
function addBody(operation: Operation, args: Arguments, tool: RestToolDefinition): void {
  const body = jsonBody(operation.op);
  if (body === undefined) return;
  const schema = toJsonSchema(body.schema);
  const props = isNode(schema.properties) ? schema.properties : undefined;
  const plainObject = props !== undefined && !('oneOf' in schema || 'anyOf' in schema || 'allOf' in schema);
  const free = (key: string) => !Object.hasOwn(args.properties, key) && argumentName(key) === key;
  if (plainObject && Object.keys(props).every(free)) {
    Object.assign(args.properties, props);
    tool.bodyProperties = Object.keys(props);
    if (body.required && Array.isArray(schema.required)) args.required.push(...(schema.required as string[]));
  } else {
    const arg = Object.hasOwn(args.properties, 'body') ? 'requestBody' : 'body';
    args.properties[arg] = schema;
    tool.bodyArgument = arg;
    if (body.required) args.required.push(arg);
  }
  tool.headers = { 'content-type': body.contentType };
}

/**
 * One operation as a `RestToolDefinition`: its parameters (path, query, header, cookie) and
 * request body merged into one object schema. A name two places share keeps it for the first
 * (path, then query, header, cookie) and is `<in>_<name>` for the others; the body's properties
 * join the top level when it is an object whose property names are all free, else it is one
 * argument `body` (`requestBody` when `body` is taken).
 */
export function operationTool(operation: Operation, name: string, baseUrl: string): RestToolDefinition {
  const args: Arguments = { properties: Object.create(null), required: [] };
  const tool: RestToolDefinition = {
    name,
    description: describe(operation),
    method: operation.method.toUpperCase() as RestToolDefinition['method'],
    url: '',
  };
  const pathNames = addParameters(operation, args, tool);
  addBody(operation, args, tool);
  const path = operation.path.replace(/\{([^}]+)\}/g, (_m, raw: string) => {
    let arg = pathNames.get(raw);
    if (arg === undefined) {
      // A path template the parameters do not declare: still an argument the call needs.
      arg = argumentName(raw);
      args.properties[arg] ??= { type: 'string' };
      args.required.push(arg);
      pathNames.set(raw, arg);
    }
    return `\${parameters.${arg}}`;
  });
  tool.url = `${baseUrl.replace(/\/+$/, '')}${path}`;
  tool.parametersSchema = {
    type: 'object',
    properties: { ...args.properties },
    ...(args.required.length === 0 ? {} : { required: [...new Set(args.required)] }),
  };
  return tool;
}
