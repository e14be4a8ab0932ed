import {
  type AgentDefinition,
  loadAgentDefinition,
  type ModelRef,
  parseModelRef,
} from '../agent-file/definition.js';
import { referenceScope } from '../agent-file/reference-scope.js';
import { suggestion } from '../agent-file/suggest.js';
import type { ResolvedConfig } from '../config/layers.js';
import { DEFAULT_MAX_SUB_AGENT_DEPTH } from '../config/schema.js';
import { displayPath, type Problem, problem } from '../errors.js';
import { judgeShapeProblem } from '../guardrails/model-judge.js';
import { type AgentEdge, type AgentRelation, agentEdges, edgeOrigin } from '../orchestration/edges.js';

/** A loaded, checked tree of agents (a DAG: one file may serve several parents). */
export interface AgentTree {
  root: AgentDefinition;
  /** Every agent of the tree by absolute path. */
  agents: Map<string, AgentDefinition>;
  /** The models each agent runs with (after `--model` and `defaults.models`). */
  models: Map<string, ModelRef[]>;
  maxDepth: number;
}

export interface TreeOptions {
  /** `--model`: replaces the models of every agent of the tree. */
  models?: readonly string[];
  /** ai-agent's `--models`: replaces the top agent's models only (beaten by `models`). */
  topModels?: readonly string[];
  cwd: string;
}

interface Visit {
  path: string;
  /** The line that names this file, and what the file is to the one naming it. */
  from?: { file: string; line?: number; spec: string; what: string };
  /** How this file was reached (absent for the top agent). */
  relation?: AgentRelation;
}

/** The files on the way down from the top agent, each with how it was reached. */
type Stack = { path: string; relation?: AgentRelation }[];

/**
 * Loads an agent file and the agent files it names (sub-agents, advisors, router destinations,
 * handoff), checking each against the config: models name configured providers, tools name
 * configured MCP servers, the files exist (inside the top agent's directory or a place
 * `allowedPaths` allows, like every file they refer to), no cycle (`a.ai -> b.ai -> a.ai`), no
 * two sub-agents (or router destinations) of one agent share a name, and no chain deeper than
 * `defaults.maxSubAgentDepth` (default 5). Every problem is collected.
 */
export function loadAgentTree(
  rootPath: string,
  config: ResolvedConfig,
  options: TreeOptions,
): { tree?: AgentTree; problems: Problem[] } {
  const problems: Problem[] = [];
  const agents = new Map<string, AgentDefinition>();
  const failed = new Set<string>();
  const models = new Map<string, ModelRef[]>();
  const maxDepth = config.defaults.maxSubAgentDepth ?? DEFAULT_MAX_SUB_AGENT_DEPTH;
  const show = (path: string) => displayPath(path, options.cwd);
  const scope = referenceScope(rootPath, config.allowedPaths);

  const load = (visit: Visit): AgentDefinition | undefined => {
    const cached = agents.get(visit.path);
    if (cached !== undefined || failed.has(visit.path)) return cached;
    const loaded = loadAgentDefinition(visit.path, {
      cwd: options.cwd,
      scope,
      ...(visit.from === undefined ? {} : { from: visit.from }),
    });
    if (loaded.definition === undefined) {
      failed.add(visit.path);
      problems.push(...loaded.problems);
      return undefined;
    }
    const definition = loaded.definition;
    agents.set(visit.path, definition);
    models.set(visit.path, checkReferences(definition, config, options, visit.path === rootPath, problems));
    return definition;
  };

  const walk = (visit: Visit, stack: Stack): void => {
    const limit = limitProblem(visit, stack, maxDepth, show);
    if (limit !== undefined) {
      problems.push(limit);
      return;
    }
    const definition = load(visit);
    if (definition === undefined) return;
    const below: Stack = [
      ...stack,
      { path: visit.path, ...(visit.relation ? { relation: visit.relation } : {}) },
    ];
    const names = new UniqueNames(definition.file, show);
    for (const edge of agentEdges(definition)) {
      walk({ path: edge.ref.path, from: edgeOrigin(definition, edge), relation: edge.relation }, below);
      const child = agents.get(edge.ref.path);
      const clash = child === undefined ? undefined : names.add(edge, child.toolName);
      if (clash !== undefined) problems.push(clash);
      const shape =
        edge.relation === 'guardrail judge' && child !== undefined ? judgeShapeProblem(child) : undefined;
      if (shape !== undefined)
        problems.push(
          problem(
            'configuration',
            definition.file,
            edge.ref.line,
            `guardrail judge file \`${edge.ref.spec}\` ${shape}`,
          ),
        );
    }
  };

  walk({ path: rootPath }, []);
  const root = agents.get(rootPath);
  if (problems.length > 0 || root === undefined) return { problems: unique(problems) };
  return { tree: { root, agents, models, maxDepth }, problems };
}

/** A cycle back to a file on the way down, or a chain deeper than `maxDepth`. */
function limitProblem(
  visit: Visit,
  stack: Stack,
  maxDepth: number,
  show: (path: string) => string,
): Problem | undefined {
  const where = [visit.from?.file ?? show(visit.path), visit.from?.line] as const;
  const here = { path: visit.path, ...(visit.relation ? { relation: visit.relation } : {}) };
  const at = stack.findIndex((entry) => entry.path === visit.path);
  if (at !== -1) return problem('agent_tree', ...where, cycleText([...stack.slice(at), here], show));
  if (stack.length <= maxDepth) return undefined;
  const chain = [...stack, here];
  const what = chain.every((entry) => entry.relation === undefined || entry.relation === 'sub-agent')
    ? 'sub-agents nest'
    : 'agents (sub-agents, advisors, router destinations, handoffs) chain';
  return problem(
    'agent_tree',
    ...where,
    `${what} deeper than the limit of ${maxDepth}: ${chainText(chain, show)} (raise defaults.maxSubAgentDepth in agent.json to allow it)`,
  );
}

/**
 * Names that must be unique among one agent's files of one kind: the tool names of its
 * sub-agents (`agent__<name>`), the enum of its router.
 */
class UniqueNames {
  private readonly seen = new Map<AgentRelation, Map<string, string>>();

  constructor(
    private readonly file: string,
    private readonly show: (path: string) => string,
  ) {}

  /** Records a loaded file's name; a problem when another file of the same kind has it. */
  add(edge: AgentEdge, name: string): Problem | undefined {
    const { ref, relation } = edge;
    if (relation !== 'sub-agent' && relation !== 'router destination') return undefined;
    const byName = this.seen.get(relation) ?? new Map<string, string>();
    this.seen.set(relation, byName);
    const other = byName.get(name);
    byName.set(name, ref.path);
    if (other === undefined || other === ref.path) return undefined;
    const both = `${this.show(other)} and ${this.show(ref.path)} (set \`toolName\` in one of them)`;
    return problem(
      'agent_tree',
      this.file,
      ref.line,
      relation === 'sub-agent'
        ? `two sub-agents have the tool name \`agent__${name}\`: ${both}`
        : `two router destinations have the name \`${name}\`: ${both}`,
    );
  }
}

function unique(problems: Problem[]): Problem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.file}:${p.line}:${p.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** `a.ai -> b.ai`, with the relation of each step when it is not a plain sub-agent: `a.ai -[handoff]-> b.ai`. */
function chainText(chain: Stack, show: (path: string) => string): string {
  return chain
    .map((entry, index) => {
      if (index === 0) return show(entry.path);
      const arrow =
        entry.relation === undefined || entry.relation === 'sub-agent' ? '->' : `-[${entry.relation}]->`;
      return `${arrow} ${show(entry.path)}`;
    })
    .join(' ');
}

function cycleText(cycle: Stack, show: (path: string) => string): string {
  const plain = cycle.slice(1).every((entry) => entry.relation === 'sub-agent');
  return `${plain ? 'sub-agent' : 'agent'} cycle: ${chainText(cycle, show)}`;
}

/** Checks models and tools against the config; returns the models the agent runs with. */
function checkReferences(
  definition: AgentDefinition,
  config: ResolvedConfig,
  options: TreeOptions,
  isRoot: boolean,
  problems: Problem[],
): ModelRef[] {
  const { file } = definition;
  let refs: ModelRef[] = definition.models;
  /** Where the references were written: the agent file, `--model(s)`, or the config's defaults. */
  let source = file;
  if (options.models !== undefined && options.models.length > 0) {
    source = '--model';
    refs = options.models.map((spec) => parseModelRef(spec, source, undefined, problems));
  } else if (isRoot && options.topModels !== undefined && options.topModels.length > 0) {
    source = '--models';
    refs = options.topModels.map((spec) => parseModelRef(spec, source, undefined, problems));
  } else if (refs.length === 0 && config.defaults.models !== undefined) {
    const origin = config.defaultsOrigin.models;
    source = origin?.file ?? 'defaults';
    refs = config.defaults.models.map((spec) => parseModelRef(spec, source, origin?.line, problems));
  }
  if (refs.length === 0) {
    problems.push(
      problem(
        'configuration',
        file,
        undefined,
        'no models: list `models: [provider/model, ...]` in the frontmatter, pass --model, or set `defaults.models` in agent.json',
      ),
    );
  }
  const providers = [...config.providers.keys()];
  const extraction = definition.toolOutputModels ?? [];
  for (const [ref, where] of [
    ...refs.map((ref) => [ref, source] as const),
    ...extraction.map((ref) => [ref, file] as const),
  ]) {
    if (ref.provider === '' || config.providers.has(ref.provider)) continue;
    problems.push(
      problem(
        'configuration',
        where,
        ref.line,
        providers.length === 0
          ? `unknown provider \`${ref.provider}\` in \`${ref.spec}\`: no config file defines any provider (${configFilesRead(config)})`
          : `unknown provider \`${ref.provider}\` in \`${ref.spec}\`${suggestion(ref.provider, providers, 'configured providers')}`,
      ),
    );
  }
  for (const tool of definition.tools) {
    const problem = toolSourceProblem(tool.name, config);
    if (problem !== undefined) problems.push(problemAt(file, tool.line, problem));
  }
  return refs;
}

function problemAt(file: string, line: number | undefined, message: string): Problem {
  return problem('configuration', file, line, message);
}

/**
 * Why a name of an agent's `tools:` names no tool source: not in `mcpServers`, `restTools`,
 * `openapiSpecs` or `a2aAgents`, or in more than one of them (which one would be ambiguous).
 */
function toolSourceProblem(name: string, config: ResolvedConfig): string | undefined {
  const sections = (
    [
      ['mcpServers', config.mcpServers],
      ['restTools', config.restTools],
      ['openapiSpecs', config.openapiSpecs],
      ['a2aAgents', config.a2aAgents],
    ] as const
  ).filter(([, entries]) => entries.has(name));
  if (sections.length === 1) return undefined;
  if (sections.length > 1)
    return `\`${name}\` is defined in ${sections.map(([section]) => section).join(' and ')}: rename one of them`;
  const known = [
    ...config.mcpServers.keys(),
    ...config.restTools.keys(),
    ...config.openapiSpecs.keys(),
    ...config.a2aAgents.keys(),
  ];
  return known.length === 0
    ? `unknown MCP server \`${name}\`: no config file defines \`mcpServers\`, \`restTools\`, \`openapiSpecs\` or \`a2aAgents\` (${configFilesRead(config)})`
    : `unknown MCP server \`${name}\`${suggestion(name, known, 'configured servers, REST tools, OpenAPI specs and A2A agents')}`;
}

function configFilesRead(config: ResolvedConfig): string {
  return config.layers.length === 0
    ? 'no agent.json was found'
    : `read: ${config.layers.map((layer) => displayPath(layer, config.cwd)).join(', ')}`;
}
