import type { JsonSchema } from '@agent/protocol';
import { discoverOAuthProtectedResourceMetadata } from '@modelcontextprotocol/sdk/client/auth.js';
import { type McpOAuthConfig, McpToolProvider, MemoryTokenStore, ToolQueues } from '../src/index.js';

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
 * Approves like a user whose browser follows the authorization URL: the suite's authorization
 * server redirects at once, and the code is read from the redirect (no browser, no loopback).
 */
export async function headlessApproval(authorizationUrl: URL): Promise<string> {
  const response = await fetch(authorizationUrl, { redirect: 'manual' });
  const location = response.headers.get('location');
  await response.body?.cancel();
  const code = location === null ? null : new URL(location).searchParams.get('code');
  if (code === null) throw new Error(`the authorization server answered ${response.status} without a code`);
  return code;
}

/** The OAuth settings of a scenario: the suite hands pre-registered credentials in its context. */
export async function scenarioOAuth(
  scenario: string,
  url: string,
  context: string | undefined,
): Promise<McpOAuthConfig | undefined> {
  const given = context === undefined ? {} : (JSON.parse(context) as Record<string, unknown>);
  const clientId = typeof given.client_id === 'string' ? given.client_id : undefined;
  const clientSecret = typeof given.client_secret === 'string' ? given.client_secret : undefined;
  if (scenario.startsWith('auth/client-credentials')) {
    // A user copies the issuer from the server's documentation; here it is read from its metadata.
    const issuer = (await discoverOAuthProtectedResourceMetadata(url)).authorization_servers?.[0];
    return { grant: 'client_credentials', clientId, clientSecret, issuer };
  }
  if (clientId !== undefined) return { clientId, ...(clientSecret ? { clientSecret } : {}) };
  if (scenario === 'auth/basic-cimd') return { clientMetadataUrl: CLIENT_METADATA_URL };
  return undefined;
}

/** The client ID metadata document URL the CIMD scenario expects a client to present. */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';

/**
 * What a tools client does in a conformance scenario: initialize, list the tools, call each once,
 * close. Returns the process exit code the suite sees (0: the client saw no error).
 */
export async function driveScenario(
  scenario: string,
  url: string,
  context?: string,
): Promise<{ exitCode: number; detail: string }> {
  const oauth = await scenarioOAuth(scenario, url, context);
  const provider = new McpToolProvider(
    'conformance',
    { type: 'http', url, toolTimeoutMs: 20_000, ...(oauth ? { oauth } : {}) },
    {
      queues: new ToolQueues(),
      clientInfo: { name: 'agent-mcp-conformance', version: '0.1.0' },
      auth: {
        store: new MemoryTokenStore(),
        authorize: headlessApproval,
        redirectUrl: 'http://127.0.0.1:3000/callback',
      },
    },
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
