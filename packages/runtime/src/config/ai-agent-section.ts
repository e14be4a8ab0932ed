import { join, resolve } from 'node:path';
import { isRecord } from '@agent/protocol/util';
import type { ResolveOptions } from '../api.js';
import { displayPath, problem, problemsError, RuntimeError } from '../errors.js';
import { jsonSyntaxError } from '../files/json-syntax.js';
import { readRegularFile } from '../files/read-regular-file.js';
import { locateSource } from '../files/source-locator.js';
import { isAiAgentConfigFile } from './ai-agent-config.js';
import { envFileBeside, readEnvFile } from './env-files.js';
import { AI_AGENT_ENV_FILE_NAME, configLayerPaths } from './layers.js';
import { findUnusable, substituteTree } from './substitute.js';

/** A section of an `.ai-agent.json` that another part of this project reads itself (agent-server's `slack`). */
export interface AiAgentSection {
  /** The section with `${VAR}` filled in as ai-agent fills it. */
  value: unknown;
  /** Absolute path of the file, and the path as shown in messages. */
  path: string;
  file: string;
  /** The line of a place in the section (`[]`: the section's own line). */
  lineOf(path: (string | number)[]): number | undefined;
  /**
   * Why a value of it cannot be used (a variable nobody set), naming the file, line and
   * variable, never a value; undefined when every value is usable. Such a value is left as an
   * object in `value`: the caller decides whether the section is used at all.
   */
  unusable?: string;
}

/**
 * The `section` of the highest `.ai-agent.json` layer that has one (ai-agent's places, as
 * `configLayerPaths` lists them for `agentDir`), with its variables filled in from the
 * `.ai-agent.env` beside it, then the working directory's, then the environment. Undefined when
 * no layer has it. Throws a configuration `RuntimeError` for a file that cannot be read or is not
 * JSON; a variable nobody set is `unusable`.
 */
export function aiAgentConfigSection(
  section: string,
  options: ResolveOptions,
  agentDir?: string,
): AiAgentSection | undefined {
  const cwd = resolve(options.cwd ?? process.cwd());
  const env = options.env ?? process.env;
  for (const path of configLayerPaths({ ...options, cwd }, agentDir).filter(isAiAgentConfigFile)) {
    const file = displayPath(path, cwd);
    const read = readRegularFile(path);
    if (!read.ok)
      throw new RuntimeError({
        kind: 'configuration',
        file,
        message: `${file}: cannot read: ${read.detail}`,
      });
    let raw: unknown;
    try {
      raw = JSON.parse(read.text);
    } catch {
      const error = jsonSyntaxError(read.text);
      throw problemsError([
        problem('configuration', file, error?.line, `invalid JSON${error ? `: ${error.message}` : ''}`),
      ]);
    }
    if (!isRecord(raw) || raw[section] === undefined) continue;
    const locator = locateSource(read.text);
    const dotenv = readEnvFile(envFileBeside(path, true), envFileBeside(file, true));
    const cwdEnv = readEnvFile(join(cwd, AI_AGENT_ENV_FILE_NAME), AI_AGENT_ENV_FILE_NAME);
    const lookup = (name: string) => dotenv[name] ?? cwdEnv[name] ?? env[name];
    // Substituted under its own name, so a message names `slack.botToken`, not `botToken`.
    const tree = substituteTree({ [section]: raw[section] }, lookup, {
      file,
      lineOf: (p) => locator.lineOf(p),
    });
    const value = (tree.value as Record<string, unknown>)[section];
    const unusable = findUnusable(value);
    return {
      value,
      path,
      file,
      lineOf: (p) => locator.lineOf([section, ...p]),
      ...(unusable === undefined
        ? {}
        : {
            unusable: `${unusable.file}${unusable.line === undefined ? '' : `:${unusable.line}`}: ${unusable.message}`,
          }),
    };
  }
  return undefined;
}
