import { expect, test } from 'vitest';

// The public surface, pinned (types are not listed: they vanish at run time). Adding or removing an
// export is a visible change to this list; internals stay unexported or under `/internal`.
test('@agent/headends exports exactly these values', async () => {
  expect(Object.keys(await import('@agent/headends')).sort()).toEqual([
    'ANONYMOUS_PRINCIPAL',
    'Admission',
    'AdmissionError',
    'DEFAULT_A2A_MAX_TASKS',
    'DEFAULT_BODY_LIMIT_BYTES',
    'DEFAULT_HEADERS_TIMEOUT_MS',
    'DEFAULT_KEEP_ALIVE_TIMEOUT_MS',
    'DEFAULT_MAX_CONNECTIONS',
    'DEFAULT_MCP_APPROVAL_TIMEOUT_MS',
    'DEFAULT_MCP_MAX_SESSIONS',
    'DEFAULT_MCP_MAX_SESSIONS_PER_TOKEN',
    'DEFAULT_MCP_SESSION_IDLE_MS',
    'DEFAULT_REQUEST_TIMEOUT_MS',
    'LOOPBACK_HOSTNAMES',
    'Principals',
    'answerText',
    'applyConnectionLimits',
    'canSee',
    'createA2aHeadend',
    'createAnthropicHeadend',
    'createCatalog',
    'createMcpHeadend',
    'createOpenAiHeadend',
    'createRestHeadend',
    'createSlackHeadend',
    'hostProblem',
    'httpServerOptions',
    'isLoopbackHost',
    'principalId',
    'reportText',
    'resolveConnectionLimits',
    'runResponse',
    'serve',
    'serveMcpStdio',
    'usageTotals',
  ]);
});

// `./http` is the root less the three headends whose SDKs a server of HTTP faces does not load.
test('@agent/headends/http exports the root but the A2A, MCP and Slack headends', async () => {
  const root = Object.keys(await import('@agent/headends'));
  const withSdks = ['createA2aHeadend', 'createMcpHeadend', 'createSlackHeadend', 'serveMcpStdio'];
  expect(Object.keys(await import('@agent/headends/http')).sort()).toEqual(
    root.filter((name) => !withSdks.includes(name)).sort(),
  );
});
