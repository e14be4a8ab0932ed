import { dirname, resolve } from 'node:path';
import { errorMessage } from '@agent/protocol/util';
import type { AgentSummary, ResolveOptions, ValidationProblem } from '../api.js';
import { type ResolvedConfig, resolveConfig, unusableValueError } from '../config/layers.js';
import { type Problem, RuntimeError } from '../errors.js';
import { modelClientConfig } from '../models/build-targets.js';
import { mcpServerConfig } from '../tools/build-tools.js';
import { checkHttpApi } from '../tools/http-apis.js';
import { type AgentTree, loadAgentTree } from './registry.js';
import { summarizeAgent } from './summary.js';

function asProblem(error: unknown, fallbackFile: string, config?: ResolvedConfig): ValidationProblem {
  const redact = config?.redact ?? ((text: string) => text);
  if (error instanceof RuntimeError) {
    // The message starts with `file:line: ` (located); the problem carries them separately.
    const prefix = `${error.file ?? ''}${error.line === undefined ? '' : `:${error.line}`}: `;
    const message = error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
    return {
      file: error.file ?? fallbackFile,
      ...(error.line === undefined ? {} : { line: error.line }),
      message: redact(message),
    };
  }
  return { file: fallbackFile, message: redact(errorMessage(error)) };
}

/**
 * Checks an agent file and its sub-agents without running anything: the frontmatter, includes,
 * schemas, the tree (cycles, duplicates, depth), and that every model and MCP server they name
 * is configured and usable (variables set, required fields present). Starts no server.
 */
export async function validateAgentFile(
  path: string,
  options: ResolveOptions = {},
): Promise<{
  ok: boolean;
  problems: ValidationProblem[];
  /** What does not stop the file from running but likely is a mistake (unknown prompt variables, inactive config sections). */
  warnings: ValidationProblem[];
  agents: AgentSummary[];
}> {
  const cwd = resolve(options.cwd ?? process.cwd());
  const file = resolve(cwd, path);
  let config: ResolvedConfig;
  try {
    config = resolveConfig({ ...options, cwd }, dirname(file));
  } catch (error) {
    return { ok: false, problems: [asProblem(error, path)], warnings: [], agents: [] };
  }
  const { tree, problems } = loadAgentTree(file, config, { cwd });
  const found = shownProblems(problems, config);
  if (tree === undefined) return { ok: false, problems: found, warnings: [], agents: [] };
  found.push(...(await targetProblems(tree, config)));
  const agents = [...tree.agents.values()].map((definition) =>
    summarizeAgent(
      definition,
      definition.agents.map((ref) => tree.agents.get(ref.path)),
      tree.models.get(definition.path),
      (path) => tree.agents.get(path),
    ),
  );
  const warnings = shownProblems(
    [...config.warnings, ...[...tree.agents.values()].flatMap((definition) => definition.warnings)],
    config,
  );
  return { ok: found.length === 0, problems: found, warnings, agents };
}

/** Problems as `validate` shows them: without their kind, messages redacted. */
function shownProblems(problems: readonly Problem[], config: ResolvedConfig): ValidationProblem[] {
  return problems.map(({ kind: _kind, ...rest }) => ({
    ...rest,
    message: config.redact(rest.message),
  }));
}

/**
 * Whether every model and MCP server (or HTTP API) the tree names is configured and usable,
 * each checked once, its problem at the first file naming it.
 */
async function targetProblems(tree: AgentTree, config: ResolvedConfig): Promise<ValidationProblem[]> {
  const found: ValidationProblem[] = [];
  const seen = new Set<string>();
  for (const definition of tree.agents.values()) {
    for (const ref of tree.models.get(definition.path) ?? []) {
      if (seen.has(`p:${ref.provider}/${ref.model}`)) continue;
      seen.add(`p:${ref.provider}/${ref.model}`);
      try {
        modelClientConfig(ref, config);
      } catch (error) {
        found.push(asProblem(error, definition.file, config));
      }
    }
    for (const tool of definition.tools) {
      const entry = config.mcpServers.get(tool.name);
      if (seen.has(`s:${tool.name}`)) continue;
      seen.add(`s:${tool.name}`);
      try {
        const agent = config.a2aAgents.get(tool.name);
        if (agent !== undefined) {
          const unusable = unusableValueError(agent.value);
          if (unusable !== undefined) throw unusable;
        } else if (entry === undefined) await checkHttpApi(tool.name, config);
        else mcpServerConfig(entry);
      } catch (error) {
        found.push(asProblem(error, definition.file, config));
      }
    }
  }
  return found;
}
