import { dirname, isAbsolute, resolve } from 'node:path';
import { redisUrlSecrets } from '@agent/cache';
import { errorMessage, isRecord } from '@agent/protocol/util';
import { normaliseDurations, normaliseSettingForms } from '../agent-file/ai-agent-forms.js';
import { coreSettingProblems } from '../agent-file/core-settings.js';
import { schemaProblems } from '../agent-file/validate.js';
import { type Problem, problem, problemsError, RuntimeError } from '../errors.js';
import { jsonSyntaxError } from '../files/json-syntax.js';
import { readRegularFile } from '../files/read-regular-file.js';
import { lazySourceLocator, type SourceLocator } from '../files/source-locator.js';
import { config } from '../validators/own-validators.generated.js';
import { isAiAgentConfigFile, translateAiAgentConfig } from './ai-agent-config.js';
import { cacheSettingProblems } from './cache-checks.js';
import { envFileBeside, readEnvFile } from './env-files.js';
import { markUnsendableHeaders } from './header-values.js';
import type { LoadedLayer } from './merge.js';
import { SECRET_VARIABLE } from './redact.js';
import { type ConfigFile, isSecretPath, type McpServerEntry } from './schema.js';
import { labelOf, substituteTree, UnusableValue } from './substitute.js';

export interface ReadLayerResult {
  layer: LoadedLayer;
  /** Values that must never be shown: keys, header and server env values, secret-named variables. */
  secrets: string[];
}

/**
 * Reads one `agent.json` (a regular file of at most `MAX_LOADED_FILE_BYTES`): strict JSON,
 * checked against the config schema (messages name the line, never quote the text),
 * `${VAR}` filled from the `.env` beside it and then `env`, relative MCP paths and
 * `allowedPaths` resolved against the file's directory, header values no HTTP header can
 * carry marked as unusable.
 */
export function readLayer(
  path: string,
  file: string,
  env: Record<string, string | undefined>,
  /** ai-agent's `.ai-agent.env` of the working directory: its files' second source of variables. */
  cwdEnv: Record<string, string> = {},
): ReadLayerResult {
  const { text, raw } = readConfigJson(path, file);
  // Lines are looked up only for a problem: a config without one is never parsed as YAML.
  const locator = lazySourceLocator(text);
  // ai-agent's `.ai-agent.json` is translated first, then checked like any `agent.json`.
  const legacy = isAiAgentConfigFile(path);
  const { checked, warnings } = checkedShape(raw, file, locator, legacy);
  const dotenv = readEnvFile(envFileBeside(path, legacy), envFileBeside(file, legacy));
  // ai-agent: the `.ai-agent.env` beside the file, then the working directory's, then the environment.
  const workingEnv = legacy ? cwdEnv : {};
  const lookup = (name: string) => dotenv[name] ?? workingEnv[name] ?? env[name];
  const substituted = substituteTree(checked, lookup, { file, lineOf: (p) => locator.lineOf(p) });
  const data = substituted.value as ConfigFile;
  const valueProblems = settingValueProblems(data, file, (p) => locator.lineOf(p));
  if (valueProblems.length > 0) throw problemsError(valueProblems);
  const secrets = [...substitutedSecrets(substituted.uses), ...literalSecrets(data)];
  markUnsendableHeaders(data, {
    file,
    lineOf: (p) => locator.lineOf(p),
    variablesAt: (p) =>
      (substituted.uses.find((use) => labelOf(use.path) === labelOf(p))?.variables ?? []).map((v) => ({
        ...v,
        from:
          dotenv[v.name] !== undefined
            ? `the .env beside ${file}`
            : workingEnv[v.name] !== undefined
              ? 'the .ai-agent.env of the working directory'
              : 'the environment',
      })),
  });
  resolvePaths(data, dirname(path));
  return { layer: { path, file, data, locator, warnings }, secrets };
}

/**
 * A configuration given as an object, not a file (seed 002's `AIAgentSessionConfig.config`), in
 * ai-agent's shape or this runtime's: translated and checked like a file, its values taken as
 * they are (no `${VAR}` substitution: an embedder passes concrete values), relative MCP paths
 * resolved against `dir`. Messages name `file` and no line. The object is not changed.
 */
export function layerFromObject(value: unknown, file: string, dir: string): ReadLayerResult {
  let raw: unknown;
  try {
    raw = structuredClone(value);
  } catch (error) {
    throw problemsError([
      problem('configuration', file, undefined, `must be plain data (${errorMessage(error)})`),
    ]);
  }
  const text = JSON.stringify(raw) ?? 'null';
  const parsed = lazySourceLocator(text);
  const locator: SourceLocator = {
    get document() {
      return parsed.document;
    },
    lineOf: () => undefined,
    lineAt: () => 1,
  };
  const { checked, warnings } = checkedShape(raw, file, locator, true);
  const data = checked as ConfigFile;
  const valueProblems = settingValueProblems(data, file, () => undefined);
  if (valueProblems.length > 0) throw problemsError(valueProblems);
  markUnsendableHeaders(data, { file, lineOf: () => undefined, variablesAt: () => [] });
  resolvePaths(data, dir);
  const path = resolve(dir, file);
  return { layer: { path, file, data, locator, warnings }, secrets: literalSecrets(data) };
}

/** What the JSON Schema cannot say: the cache settings' TTLs and stores, `defaults.compaction`'s and `defaults.toolSearch`'s bounds. */
function settingValueProblems(
  data: ConfigFile,
  file: string,
  lineOf: (path: (string | number)[]) => number | undefined,
): Problem[] {
  return [
    ...cacheSettingProblems(data, file, lineOf),
    ...coreSettingProblems(data.defaults, { file, base: ['defaults'], lineOf }),
  ];
}

/** ai-agent's shape translated (`legacy`), durations normalised, then checked against the config schema. */
function checkedShape(
  raw: unknown,
  file: string,
  locator: SourceLocator,
  legacy: boolean,
): { checked: unknown; warnings: Problem[] } {
  let checked = raw;
  let warnings: Problem[] = [];
  if (legacy) {
    const translated = translateAiAgentConfig(raw, file, (p) => locator.lineOf(p));
    if (translated.problems.length > 0) throw problemsError(translated.problems);
    checked = translated.data;
    warnings = translated.warnings;
  }
  normaliseConfigDurations(checked);
  const shape: Problem[] = schemaProblems(config, checked, { file, locator, hideValue: isSecretPath });
  if (shape.length > 0) throw problemsError(shape);
  return { checked, warnings };
}

/** The file read (a regular file within the size limit) and parsed as strict JSON. */
function readConfigJson(path: string, file: string): { text: string; raw: unknown } {
  const read = readRegularFile(path);
  if (!read.ok) {
    const missing = read.reason === 'not_found';
    throw new RuntimeError({
      kind: missing ? 'not_found' : 'configuration',
      file,
      message: `${file}: ${missing ? 'config file does not exist' : `cannot read the config file: ${read.detail}`}`,
    });
  }
  try {
    return { text: read.text, raw: JSON.parse(read.text) };
  } catch {
    // `JSON.parse`'s message quotes the text, which may hold a key.
    const error = jsonSyntaxError(read.text);
    const message =
      error === undefined ? 'invalid JSON' : `invalid JSON: ${error.message} (column ${error.column})`;
    throw problemsError([problem('configuration', file, error?.line, message)]);
  }
}

/** The values `${VAR}` put where secrets go, and the values of secret-named variables. */
function substitutedSecrets(uses: ReturnType<typeof substituteTree>['uses']): string[] {
  const secrets: string[] = [];
  for (const use of uses) {
    if (isSecretPath(use.path)) secrets.push(use.value, ...use.variables.map((v) => v.value));
    for (const variable of use.variables)
      if (SECRET_VARIABLE.test(variable.name)) secrets.push(variable.value);
  }
  return secrets;
}

/** Every path of the file (MCP servers, OpenAPI documents, stores, persistence) is relative to its directory. */
function resolvePaths(data: ConfigFile, dir: string): void {
  for (const server of Object.values(data.mcpServers ?? {}))
    if (server !== null) resolveServerPaths(server, dir);
  // An OpenAPI document's path, like every path of the file, is relative to its directory.
  for (const api of Object.values(data.openapiSpecs ?? {}))
    if (api !== null && typeof api.spec === 'string' && !/^https?:\/\//i.test(api.spec))
      api.spec = resolve(dir, api.spec);
  // The SQLite cache file, like every path of the file, is relative to its directory.
  if (typeof data.cache?.path === 'string') data.cache.path = resolve(dir, data.cache.path);
  if (typeof data.sessions?.path === 'string') data.sessions.path = resolve(dir, data.sessions.path);
  for (const key of ['sessionsDir', 'billingFile'] as const) {
    const value = data.persistence?.[key];
    if (typeof value === 'string') data.persistence![key] = resolve(dir, value);
  }
  if (data.allowedPaths !== undefined)
    data.allowedPaths = data.allowedPaths.map((p) => (typeof p === 'string' ? resolve(dir, p) : p));
}

/** Every time setting of a config file takes a duration (`30s`, `5m`) as well as milliseconds. */
function normaliseConfigDurations(raw: unknown): void {
  if (!isRecord(raw)) return;
  for (const entry of Object.values(isRecord(raw.providers) ? raw.providers : {}))
    if (isRecord(entry)) normaliseDurations(entry, ['timeoutMs']);
  for (const entry of Object.values(isRecord(raw.mcpServers) ? raw.mcpServers : {}))
    if (isRecord(entry))
      normaliseDurations(entry, [
        'toolTimeoutMs',
        'connectTimeoutMs',
        'healthProbeIntervalMs',
        'healthProbeTimeoutMs',
      ]);
  for (const section of [raw.restTools, raw.openapiSpecs])
    for (const entry of Object.values(isRecord(section) ? section : {}))
      if (isRecord(entry)) normaliseDurations(entry, ['timeoutMs']);
  if (isRecord(raw.defaults)) {
    normaliseSettingForms(raw.defaults);
    if (typeof raw.defaults.reasoning === 'string')
      raw.defaults.reasoning = { effort: raw.defaults.reasoning };
  }
}

function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value instanceof UnusableValue) return [];
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(strings);
  return [];
}

function literalSecrets(data: ConfigFile): string[] {
  const out: string[] = [];
  for (const provider of Object.values(data.providers ?? {})) {
    if (provider === null) continue;
    out.push(...strings(provider.apiKey), ...strings(provider.headers));
  }
  for (const server of Object.values(data.mcpServers ?? {})) {
    if (server === null) continue;
    out.push(...strings(server.headers), ...strings(server.env));
  }
  for (const api of [...Object.values(data.restTools ?? {}), ...Object.values(data.openapiSpecs ?? {})]) {
    if (api === null) continue;
    out.push(...strings(api.headers), ...secretAuthValues(api.auth));
  }
  if (typeof data.cache?.url === 'string') out.push(...redisUrlSecrets(data.cache.url));
  if (typeof data.sessions?.url === 'string') out.push(...redisUrlSecrets(data.sessions.url));
  out.push(...strings(data.telemetry?.otlp?.headers));
  return out;
}

/** The secret values of an HTTP API's `auth` (not its type, header name or token URL). */
function secretAuthValues(auth: unknown): string[] {
  if (!isRecord(auth)) return [];
  return ['token', 'value', 'password', 'clientSecret'].flatMap((key) => strings(auth[key]));
}

/**
 * A stdio server's `cwd` is relative to the config file's directory and defaults to it; a
 * `command` that starts with `./` or `../` is resolved against it too. Arguments are passed
 * as written (so `./data` means the `data` directory beside the config file).
 */
function resolveServerPaths(server: McpServerEntry, dir: string): void {
  const stdio = server.type === 'stdio' || (server.type === undefined && server.command !== undefined);
  if (!stdio) return;
  if (server.cwd === undefined) server.cwd = dir;
  else if (typeof server.cwd === 'string' && !isAbsolute(server.cwd)) server.cwd = resolve(dir, server.cwd);
  if (typeof server.command === 'string' && /^\.\.?[\\/]/.test(server.command)) {
    server.command = resolve(dir, server.command);
  }
}
