import { readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type picomatchType from 'picomatch';
import { parse as parseYaml } from 'yaml';
import { boundedFetch } from '../bounded-fetch.js';
import { HttpToolsError } from '../errors.js';
import type { HttpAuth, RestToolDefinition } from '../types.js';
import { operationToolNames } from './names.js';
import { type Operation, operationTool } from './operation-tool.js';
import { documentAuth, type PartialAuth } from './security.js';

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'] as const;

/** Which operations become tools: every filter given must let an operation through (AND). */
export interface OpenApiFilter {
  /** Operations with at least one of these tags. */
  tags?: readonly string[];
  /** Globs over the document's paths (`/pets/**`). */
  paths?: readonly string[];
  /** operationIds (globs). */
  operations?: readonly string[];
  /** HTTP methods (any case). */
  methods?: readonly string[];
}

export interface OpenApiToolsOptions {
  /** The API's name: tools are `<name>__<operation>`. */
  name: string;
  /** A file path, an http(s) URL, or the parsed document. */
  spec: string | Record<string, unknown>;
  /** Beats the document's `servers[0]`. */
  baseUrl?: string;
  filter?: OpenApiFilter;
  /** `false`: no operation asks for approval; `true`: all do; default: all but GET and HEAD. */
  approval?: boolean;
  /** The API's credentials; an `apiKey` without `name`/`in` or an `oauth2` without `tokenUrl` takes them from the document. */
  auth?: PartialAuth;
  /** Largest document read (default 32 MiB). */
  maxDocumentBytes?: number;
  /** Directory a relative `spec` path is read from (default the working directory). */
  cwd?: string;
  signal?: AbortSignal;
}

export interface OpenApiTools {
  tools: RestToolDefinition[];
  /** The base URL the tools call. */
  baseUrl: string;
  /** Operations in the document, before the filter. */
  operationCount: number;
  /** The credentials, completed from the document's security schemes. */
  auth?: HttpAuth;
}

const DEFAULT_MAX_DOCUMENT_BYTES = 32 * 1024 * 1024;

/** The document, parsed; every failure (a network error too) an `HttpToolsError` that names the document. */
async function readDocument(options: OpenApiToolsOptions): Promise<{ doc: Node; from?: URL }> {
  try {
    return await readDocumentOf(options);
  } catch (error) {
    if (error instanceof HttpToolsError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new HttpToolsError(`the OpenAPI document ${String(options.spec)} cannot be read: ${reason}`, {
      cause: error,
    });
  }
}

async function readDocumentOf(options: OpenApiToolsOptions): Promise<{ doc: Node; from?: URL }> {
  if (typeof options.spec !== 'string') return { doc: structuredClone(options.spec) };
  const max = options.maxDocumentBytes ?? DEFAULT_MAX_DOCUMENT_BYTES;
  let text: string;
  let from: URL | undefined;
  if (/^https?:\/\//i.test(options.spec)) {
    from = new URL(options.spec);
    const response = await boundedFetch(
      { method: 'GET', url: from, headers: new Headers({ accept: 'application/json, application/yaml' }) },
      {
        allowed: new Set([from.host.toLowerCase()]),
        maxBytes: max,
        maxRedirects: 5,
        signal: options.signal ?? AbortSignal.timeout(60_000),
      },
    );
    if (response.status >= 400)
      throw new HttpToolsError(
        `the OpenAPI document at ${from.origin}${from.pathname} answered HTTP ${response.status}`,
      );
    if (response.truncated)
      throw new HttpToolsError(
        `the OpenAPI document at ${from.origin}${from.pathname} is larger than ${max} bytes`,
      );
    text = response.text;
  } else {
    const path = resolve(options.cwd ?? process.cwd(), options.spec);
    const info = await stat(path).catch(() => undefined);
    if (info === undefined || !info.isFile())
      throw new HttpToolsError(`the OpenAPI document ${options.spec} does not exist (or is not a file)`);
    if (info.size > max)
      throw new HttpToolsError(`the OpenAPI document ${options.spec} is larger than ${max} bytes`);
    text = await readFile(path, 'utf8');
  }
  let doc: unknown;
  try {
    // yaml's uniqueKeys check is quadratic in a map's keys (40,000 keys: 12 s on the event loop):
    // off, a duplicate key counts as in JSON.parse (the last one wins), the same for both forms.
    doc = text.trimStart().startsWith('{')
      ? JSON.parse(text)
      : parseYaml(text, { maxAliasCount: 100, uniqueKeys: false });
  } catch (error) {
    throw new HttpToolsError(
      `the OpenAPI document ${options.spec} is neither JSON nor YAML: ${(error as Error).message}`,
    );
  }
  if (!isNode(doc)) throw new HttpToolsError(`the OpenAPI document ${options.spec} is not an object`);
  return { doc, ...(from === undefined ? {} : { from }) };
}

function baseUrlOf(doc: Node, options: OpenApiToolsOptions, from: URL | undefined): string {
  if (options.baseUrl !== undefined) return options.baseUrl;
  const first = Array.isArray(doc.servers) ? doc.servers[0] : undefined;
  if (!isNode(first) || typeof first.url !== 'string')
    throw new HttpToolsError(`the OpenAPI document of "${options.name}" lists no servers: set baseUrl`);
  const variables = isNode(first.variables) ? first.variables : {};
  const url = first.url.replace(/\{([^}]+)\}/g, (match, name: string) => {
    const variable = variables[name];
    return isNode(variable) && typeof variable.default === 'string' ? variable.default : match;
  });
  if (/^https?:\/\//i.test(url)) return url;
  if (from !== undefined) return new URL(url, from).href;
  throw new HttpToolsError(
    `the OpenAPI document of "${options.name}" has a relative server URL (${url}): set baseUrl`,
  );
}

/** picomatch, loaded by the first OpenAPI filter with globs (a start without one never loads it). */
let picomatchModule: typeof picomatchType | undefined;
function picomatch(globs: string[], options: picomatchType.PicomatchOptions): picomatchType.Matcher {
  picomatchModule ??= createRequire(import.meta.url)('picomatch') as typeof picomatchType;
  return picomatchModule(globs, options);
}

function selector(filter: OpenApiFilter | undefined): (operation: Operation) => boolean {
  if (filter === undefined) return () => true;
  const tags = filter.tags === undefined ? undefined : new Set(filter.tags);
  const paths = filter.paths === undefined ? undefined : picomatch([...filter.paths], { dot: true });
  const ids = filter.operations === undefined ? undefined : picomatch([...filter.operations], { dot: true });
  const methods =
    filter.methods === undefined ? undefined : new Set(filter.methods.map((m) => m.toLowerCase()));
  return (operation) => {
    if (methods !== undefined && !methods.has(operation.method)) return false;
    if (paths !== undefined && !paths(operation.path)) return false;
    if (ids !== undefined && !(typeof operation.op.operationId === 'string' && ids(operation.op.operationId)))
      return false;
    if (
      tags !== undefined &&
      !(Array.isArray(operation.op.tags) && operation.op.tags.some((t) => tags.has(String(t))))
    )
      return false;
    return true;
  };
}

function parametersOf(pathItem: Node, op: Node): Node[] {
  const byKey = new Map<string, Node>();
  for (const list of [pathItem.parameters, op.parameters])
    if (Array.isArray(list))
      for (const p of list) if (isNode(p)) byKey.set(`${String(p.in)}:${String(p.name)}`, p);
  return [...byKey.values()];
}

/**
 * Reads an OpenAPI 3.0/3.1 document (a file, a URL or an object), resolves its internal `$ref`s
 * (`@apidevtools/json-schema-ref-parser`; no file or URL a `$ref` names is ever read) and makes one
 * `RestToolDefinition` per operation the filter keeps. One pass over the operations: a document
 * of thousands of them costs time linear in its size, and only the kept ones get schemas.
 */
export async function loadOpenApiTools(options: OpenApiToolsOptions): Promise<OpenApiTools> {
  const { doc, from } = await readDocument(options);
  const version = typeof doc.openapi === 'string' ? doc.openapi : undefined;
  if (version === undefined || !/^3\.[01]\./.test(version))
    throw new HttpToolsError(
      `the document of "${options.name}" is not OpenAPI 3.0 or 3.1 (its "openapi" field is ${JSON.stringify(doc.openapi ?? doc.swagger ?? null)})`,
    );
  if (!isNode(doc.paths))
    throw new HttpToolsError(`the OpenAPI document of "${options.name}" has no "paths" object`);
  let resolved: Node;
  // Imported here: only a process that loads an OpenAPI document pays for the $ref resolver.
  const { default: $RefParser } = await import('@apidevtools/json-schema-ref-parser');
  try {
    resolved = (await $RefParser.dereference(doc, {
      resolve: { external: false },
      dereference: { circular: 'ignore' },
    })) as Node;
  } catch (error) {
    throw new HttpToolsError(
      `the OpenAPI document of "${options.name}" has a $ref that cannot be resolved: ${(error as Error).message}`,
    );
  }
  const baseUrl = baseUrlOf(resolved, options, from);
  const keep = selector(options.filter);
  const selected: Operation[] = [];
  let operationCount = 0;
  for (const [path, pathItem] of Object.entries(resolved.paths as Node)) {
    if (!isNode(pathItem)) continue;
    for (const method of METHODS) {
      const op = pathItem[method];
      if (!isNode(op)) continue;
      operationCount++;
      const operation: Operation = {
        key: `${method.toUpperCase()} ${path}`,
        method,
        path,
        op,
        parameters: [],
      };
      if (!keep(operation)) continue;
      operation.parameters = parametersOf(pathItem, op);
      selected.push(operation);
    }
  }
  const names = operationToolNames(
    options.name,
    selected.map((o) => ({
      key: o.key,
      id: typeof o.op.operationId === 'string' ? o.op.operationId : `${o.method}_${o.path}`,
    })),
  );
  const tools = selected.map((operation) => {
    const tool = operationTool(operation, names.get(operation.key) as string, baseUrl);
    if (options.approval !== undefined) tool.approval = options.approval;
    return tool;
  });
  const auth = documentAuth(options.auth, resolved, baseUrl);
  return { tools, baseUrl, operationCount, ...(auth === undefined ? {} : { auth }) };
}
