import { expect, test } from 'vitest';

// The public surface, pinned (types are not listed: they vanish at run time). Adding or removing an
// export is a visible change to this list; internals stay unexported or under `/internal`.
test('@agent/runtime exports exactly these values', async () => {
  expect(Object.keys(await import('@agent/runtime')).sort()).toEqual([
    'AIAgent',
    'CONFIG_FILE_NAME',
    'DEFAULT_MAX_CONCURRENT_SUB_AGENTS',
    'DEFAULT_MAX_SUB_AGENT_DEPTH',
    'DEFAULT_SYSTEM_CONFIG_DIR',
    'FORMAT_DESCRIPTIONS',
    'FRONTMATTER_KEYS',
    'MAX_INCLUDED_BYTES',
    'MAX_LEDGER_LINE_BYTES',
    'MAX_LOADED_FILE_BYTES',
    'MAX_RECORD_BYTES',
    'MAX_YAML_ALIAS_COUNT',
    'MAX_YAML_KEYS',
    'RuntimeError',
    'TRACE_SAMPLERS',
    'aiAgentConfigSection',
    'closestName',
    'configuredMcpServers',
    'configuredSessionsDir',
    'createAgentRunner',
    'describeConfig',
    'findSessionRecord',
    'listAgentTools',
    'listSessionRecordFiles',
    'readRegularFile',
    'readSessionRecord',
    'recordFileName',
    'resumeStoredSession',
    'runAgentFile',
    'sealStoredSnapshots',
    'snapshotKeySettings',
    'telemetrySettings',
    'validateAgentFile',
  ]);
});
