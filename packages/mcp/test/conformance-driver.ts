import type { JsonSchema } from '@agent/protocol';
import { McpToolProvider, ToolQueues } from '../src/index.js';

function sampleValue(schema: unknown): unknown {
  const type = (schema as { type?: unknown } | undefined)?.type;
  if (type === 'number' || type === 'integer') return 2;
  if (type === 'boolean') return true;
  if (type === 'array') return [];
  if (type === 'object') return {};
  return 'conformance';
}

/** Arguments that fit a tool's input schema: every required property gets a plain sample value. */
export function sampleArguments(schema: JsonSchema): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  return Object.fromEntries(required.map((key) => [key, sampleValue(properties[key])]));
}

/**
 * What a tools client does in a conformance scenario: initialize, list the tools, call each once,
 * close. Returns the process exit code the suite sees (0: the client saw no error).
 */
export async function driveScenario(
  scenario: string,
  url: string,
): Promise<{ exitCode: number; detail: string }> {
  const provider = new McpToolProvider(
    'conformance',
    { type: 'http', url, toolTimeoutMs: 20_000 },
    { queues: new ToolQueues(), clientInfo: { name: 'agent-mcp-conformance', version: '0.1.0' } },
  );
  const problems: string[] = [];
  try {
    const tools = await provider.listTools();
    for (const tool of tools) {
      const result = await provider.execute(
        { name: tool.name, arguments: sampleArguments(tool.inputSchema), callId: `${scenario}-${tool.name}` },
        { signal: new AbortController().signal },
      );
      if (!result.ok) problems.push(`${tool.name}: ${result.error.kind}: ${result.error.message}`);
    }
  } catch (error) {
    problems.push(`${scenario}: ${(error as Error).message}`);
  } finally {
    await provider.close();
  }
  return { exitCode: problems.length === 0 ? 0 : 1, detail: problems.join('\n') };
}
