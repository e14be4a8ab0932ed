import type { McpStdioHeadend } from '@agent/headends';
import {
  type AdmissionGate,
  type AgentCatalog,
  createAnthropicHeadend,
  createOpenAiHeadend,
  createRestHeadend,
  type Headend,
  type HeadendOptions,
  type ServedHeadend,
  serve,
} from '@agent/headends/http';
import { faceHostnames } from './allowed-hosts.js';
import type { ServerConfig } from './server-config.js';
import { connectionLimits, mcpSessionLimits } from './server-limits.js';
import { type RunningHeadend, startSlack } from './start-slack.js';

/** A headend the config asks for: its name, port, the path its routes start with, and its maker. */
interface PlannedHeadend {
  name: string;
  port: number;
  path: string;
  make: () => Headend | Promise<Headend>;
}

/** The A2A and MCP headends with their SDKs, loaded only for a server that serves one of them. */
const headendsWithSdks = () => import('@agent/headends');

/** Starts each configured headend; prints one line per listening headend to stderr. */
export async function startHeadends(
  config: ServerConfig,
  catalog: AgentCatalog,
  log: (line: string) => void,
  admissionGate?: AdmissionGate,
): Promise<{ running: RunningHeadend[]; stdio?: McpStdioHeadend }> {
  const running: RunningHeadend[] = [];
  const served: ServedHeadend[] = [];
  try {
    for (const plan of plannedHeadends(config, catalog, admissionGate)) {
      const headend = await plan.make();
      const handle = await serve(headend, {
        port: plan.port,
        host: config.host,
        ...connectionLimits(config),
      });
      served.push(handle);
      running.push({
        name: plan.name,
        admission: headend.admission,
        drain: async (deadline) => void (await handle.drain(deadline)),
      });
      log(`agent-server: ${plan.name} listening on ${handle.url}${plan.path}`);
    }
    const slack = await startSlack(config, catalog, log);
    if (slack !== undefined) running.push(slack);
  } catch (error) {
    await Promise.allSettled(served.map((handle) => handle.close()));
    throw error;
  }
  if (config.mcp?.kind !== 'stdio') return { running };
  const { serveMcpStdio } = await headendsWithSdks();
  const stdio = await serveMcpStdio({
    catalog,
    concurrency: config.concurrency,
    queueSize: config.queueSize,
    approvalTimeoutMs: mcpSessionLimits(config).approvalTimeoutMs,
  });
  running.push({
    name: 'mcp-stdio',
    admission: stdio.admission,
    drain: async (deadline) => {
      stdio.admission.beginDrain();
      await Promise.race([stdio.admission.idle(), new Promise((r) => setTimeout(r, deadline).unref())]);
      await stdio.close();
    },
  });
  log('agent-server: mcp listening on stdio');
  return { running, stdio };
}

/** The HTTP headends made from the common options alone: the config key of their port, name, path, maker. */
const COMMON_HEADENDS = [
  // Also `POST /api/chat`, the AI SDK UI message stream.
  { portKey: 'api', name: 'rest', path: '/v1/agents', create: createRestHeadend },
  { portKey: 'openai', name: 'openai', path: '/v1', create: createOpenAiHeadend },
  { portKey: 'anthropic', name: 'anthropic', path: '', create: createAnthropicHeadend },
] as const;

/** The HTTP headends the config names, in the order they start. */
function plannedHeadends(
  config: ServerConfig,
  catalog: AgentCatalog,
  admissionGate: AdmissionGate | undefined,
): PlannedHeadend[] {
  const common: Omit<HeadendOptions, 'headendId'> = {
    catalog,
    tokens: config.tokens,
    operatorTokens: config.operatorTokens,
    allowNoAuth: config.allowNoAuth,
    bodyLimitBytes: config.bodyLimitBytes,
    concurrency: config.concurrency,
    queueSize: config.queueSize,
    retryAfterSeconds: config.retryAfterSeconds,
    allowedHostnames: faceHostnames(config),
    ...(admissionGate === undefined ? {} : { admissionGate }),
  };
  const planned: PlannedHeadend[] = [];
  for (const { portKey, name, path, create } of COMMON_HEADENDS) {
    const port = config[portKey];
    // The REST face alone has `assistantText` (its SSE and /api/chat streams).
    const options = name === 'rest' ? { ...common, assistantText: config.assistantText === true } : common;
    if (port !== undefined) planned.push({ name, port, path, make: () => create(options) });
  }
  if (config.a2a !== undefined) {
    const { port, ...a2a } = config.a2a;
    // Cards at /a2a/<agent>/.well-known/agent-card.json, JSON-RPC at /a2a/<agent>.
    planned.push({
      name: 'a2a',
      port,
      path: '/a2a',
      make: async () => (await headendsWithSdks()).createA2aHeadend({ ...common, ...a2a }),
    });
  }
  if (config.mcp?.kind === 'http') {
    planned.push({
      name: 'mcp',
      port: config.mcp.port,
      path: '/mcp',
      make: async () =>
        (await headendsWithSdks()).createMcpHeadend({ ...common, ...mcpSessionLimits(config) }),
    });
  }
  return planned;
}
