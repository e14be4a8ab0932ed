import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { ResolveOptions } from '../api.js';
import { displayPath, RuntimeError } from '../errors.js';
import { isAiAgentConfigFile } from './ai-agent-config.js';
import { readEnvFile } from './env-files.js';
import { type LoadedLayer, type MergedConfig, mergeLayers } from './merge.js';
import { readLayer } from './read-layer.js';
import { createRedactor, type Redactor } from './redact.js';
import { findUnusable } from './substitute.js';

export const CONFIG_FILE_NAME = 'agent.json';
export const DEFAULT_SYSTEM_CONFIG_DIR = '/etc/agent';
/** ai-agent's file names and system directory, read at its layer positions beside ours. */
export const AI_AGENT_CONFIG_FILE_NAME = '.ai-agent.json';
/** ai-agent's variables file: beside each `.ai-agent.json`, and in the working directory. */
export const AI_AGENT_ENV_FILE_NAME = '.ai-agent.env';
export const DEFAULT_AI_AGENT_SYSTEM_DIR = '/etc/ai-agent';

/** The configuration in effect: merged layers, the secrets found and a redactor over them. */
export interface ResolvedConfig extends MergedConfig {
  /** Config files read, highest layer first (absolute paths). */
  layers: string[];
  cwd: string;
  env: Record<string, string | undefined>;
  secrets: string[];
  redact: Redactor;
}

/** `$XDG_CONFIG_HOME/agent`, else `~/.config/agent`. */
export function defaultUserConfigDir(env: Record<string, string | undefined>): string {
  const xdg = env.XDG_CONFIG_HOME;
  return xdg !== undefined && xdg !== '' ? join(xdg, 'agent') : join(homedir(), '.config', 'agent');
}

/**
 * The config files to read, highest first: `configPath` (must exist), `<cwd>/agent.json`,
 * `<cwd>/.ai-agent.json`, `<agent file's dir>/agent.json`, `<agent file's dir>/.ai-agent.json`,
 * `<user config dir>/agent.json`, `~/.ai-agent.json`, `<system dir>/agent.json`,
 * `/etc/ai-agent/ai-agent.json`.
 * A file reached twice is read once, at its highest place.
 */
export function configLayerPaths(options: ResolveOptions, agentDir?: string): string[] {
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  const paths: string[] = [];
  if (options.configPath !== undefined) {
    const explicit = resolve(cwd, options.configPath);
    if (!existsSync(explicit)) {
      const file = displayPath(explicit, cwd);
      throw new RuntimeError({ kind: 'not_found', file, message: `${file}: config file does not exist` });
    }
    paths.push(explicit);
  }
  // At each place this runtime's `agent.json` comes first, then ai-agent's file.
  const home = options.aiAgentHomeDir ?? homedir();
  const candidates = [
    join(cwd, CONFIG_FILE_NAME),
    join(cwd, AI_AGENT_CONFIG_FILE_NAME),
    ...(agentDir === undefined
      ? []
      : [join(agentDir, CONFIG_FILE_NAME), join(agentDir, AI_AGENT_CONFIG_FILE_NAME)]),
    join(options.userConfigDir ?? defaultUserConfigDir(env), CONFIG_FILE_NAME),
    join(home, AI_AGENT_CONFIG_FILE_NAME),
    join(options.systemConfigDir ?? DEFAULT_SYSTEM_CONFIG_DIR, CONFIG_FILE_NAME),
    join(options.aiAgentSystemDir ?? DEFAULT_AI_AGENT_SYSTEM_DIR, 'ai-agent.json'),
  ].map((path) => resolve(cwd, path));
  for (const path of candidates) if (!paths.includes(path) && existsSync(path)) paths.push(path);
  return paths;
}

/** Reads and merges every layer. Throws `RuntimeError` for a file that is not valid. */
export function resolveConfig(options: ResolveOptions, agentDir?: string): ResolvedConfig {
  const cwd = resolve(options.cwd ?? process.cwd());
  const env = options.env ?? process.env;
  const paths = configLayerPaths({ ...options, cwd }, agentDir);
  const layers: LoadedLayer[] = [];
  const secrets: string[] = [];
  // Read only when an ai-agent file is among the layers (it is theirs alone).
  const cwdEnv = paths.some(isAiAgentConfigFile)
    ? readEnvFile(join(cwd, AI_AGENT_ENV_FILE_NAME), AI_AGENT_ENV_FILE_NAME)
    : {};
  for (const path of paths) {
    const read = readLayer(path, displayPath(path, cwd), env, cwdEnv);
    layers.push(read.layer);
    secrets.push(...read.secrets);
  }
  const merged = mergeLayers(layers);
  const redact = createRedactor(secrets);
  const unusable =
    findUnusable(merged.defaults) ?? findUnusable(merged.queues) ?? findUnusable(merged.allowedPaths);
  if (unusable !== undefined) {
    throw new RuntimeError({
      kind: 'configuration',
      file: unusable.file,
      ...(unusable.line === undefined ? {} : { line: unusable.line }),
      message: redact(
        `${unusable.file}${unusable.line === undefined ? '' : `:${unusable.line}`}: ${unusable.message}`,
      ),
    });
  }
  return { ...merged, layers: paths, cwd, env, secrets, redact };
}

/** An error for an `UnusableValue` (a variable not set, a bad header value) in an entry about to be used. */
export function unusableValueError(value: unknown): RuntimeError | undefined {
  const unusable = findUnusable(value);
  if (unusable === undefined) return undefined;
  return new RuntimeError({
    kind: 'configuration',
    file: unusable.file,
    ...(unusable.line === undefined ? {} : { line: unusable.line }),
    message: `${unusable.file}${unusable.line === undefined ? '' : `:${unusable.line}`}: ${unusable.message}`,
  });
}
