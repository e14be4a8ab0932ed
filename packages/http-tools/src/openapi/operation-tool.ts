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

/**
 * One operation as a `RestToolDefinition`: its parameters (path, query, header, cookie) and
 * request body merged into one object schema. A name two places share keeps it for the first
 * (path, then query, header, cookie) and is `<in>_<name>` for the others; the body's properties
 * join the top level when it is an object whose property names are all free, else it is one
 * argument `body` (`requestBody` when `body` is taken).
 */
export function operationTool(operation: Operation, name: string, baseUrl: string): RestToolDefinition {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  const tool: RestToolDefinition = {
    name,
    description: describe(operation),
    method: operation.method.toUpperCase() as RestToolDefinition['method'],
    url: '',
  };
  const pathNames = new Map<string, string>();
  const order = ['path', 'query', 'header', 'cookie'];
  const params = [...operation.parameters].sort(
    (a, b) => order.indexOf(String(a.in)) - order.indexOf(String(b.in)),
  );
  for (const param of params) {
    const where = String(param.in);
    if (typeof param.name !== 'string' || !order.includes(where)) continue;
    let arg = argumentName(param.name);
    if (arg in properties) arg = argumentName(`${where}_${param.name}`);
    for (let n = 2; arg in properties; n++) arg = argumentName(`${where}_${param.name}_${n}`);
    const schema = toJsonSchema(param.schema);
    if (typeof param.description === 'string' && schema.description === undefined)
      schema.description = param.description;
    properties[arg] = schema;
    if (param.required === true || where === 'path') required.push(arg);
    if (where === 'path') pathNames.set(param.name, arg);
    else {
      const key =
        where === 'query' ? 'queryArguments' : where === 'header' ? 'headerArguments' : 'cookieArguments';
      const map = tool[key] ?? {};
      map[param.name] = arg;
      tool[key] = map;
    }
  }
  const body = jsonBody(operation.op);
  if (body !== undefined) {
    const schema = toJsonSchema(body.schema);
    const props = isNode(schema.properties) ? schema.properties : undefined;
    const plainObject = props !== undefined && !('oneOf' in schema || 'anyOf' in schema || 'allOf' in schema);
    if (plainObject && Object.keys(props).every((key) => !(key in properties) && argumentName(key) === key)) {
      Object.assign(properties, props);
      tool.bodyProperties = Object.keys(props);
      if (body.required && Array.isArray(schema.required)) required.push(...(schema.required as string[]));
    } else {
      const arg = 'body' in properties ? 'requestBody' : 'body';
      properties[arg] = schema;
      tool.bodyArgument = arg;
      if (body.required) required.push(arg);
    }
    tool.headers = { 'content-type': body.contentType };
  }
  const path = operation.path.replace(/\{([^}]+)\}/g, (_m, raw: string) => {
    let arg = pathNames.get(raw);
    if (arg === undefined) {
      // A path template the parameters do not declare: still an argument the call needs.
      arg = argumentName(raw);
      properties[arg] ??= { type: 'string' };
      required.push(arg);
      pathNames.set(raw, arg);
    }
    return `\${parameters.${arg}}`;
  });
  tool.url = `${baseUrl.replace(/\/+$/, '')}${path}`;
  tool.parametersSchema = {
    type: 'object',
    properties,
    ...(required.length === 0 ? {} : { required: [...new Set(required)] }),
  };
  return tool;
}
