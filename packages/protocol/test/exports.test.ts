import { expect, test } from 'vitest';

// The public surface, pinned (types are not listed: they vanish at run time). Adding or removing an
// export is a visible change to this list; internals stay unexported or under `/internal`.
test('@agent/protocol exports exactly these values', async () => {
  expect(Object.keys(await import('@agent/protocol')).sort()).toEqual([
    'AGENT_ERROR_BRAND',
    'AgentError',
    'BATCH_TOOL',
    'CONFIGURATION_ERROR_CODE',
    'ConfigError',
    'DEFAULT_CONTEXT_BUFFER',
    'DEFAULT_CONTEXT_WINDOW',
    'DEFAULT_MAX_RETRIES',
    'DEFAULT_MAX_TURNS',
    'EXIT_CODES',
    'FINAL_REPORT_ORIGINS',
    'FINAL_REPORT_SHORT_NAME',
    'FINAL_REPORT_SOURCES',
    'FINAL_REPORT_STATUSES',
    'FINAL_REPORT_TOOL',
    'FORCED_FINAL_REASONS',
    'INTERNAL_TOOL_SERVER',
    'LOG_SEVERITIES',
    'MODEL_ERROR_CODE',
    'MODEL_ERROR_KINDS',
    'ModelError',
    'OUTPUT_FORMATS',
    'REASONING_EFFORTS',
    'REDACTED',
    'REPORT_BACK_TOOL',
    'SESSION_OWNER_LABEL',
    'SESSION_RECORD_KIND',
    'SESSION_RECORD_VERSION',
    'SESSION_SNAPSHOT_VERSION',
    'SUB_AGENT_TOOL_PREFIX',
    'TASK_STATUS_TOOL',
    'TEXT_OUTPUT_FORMATS',
    'TOOL_FINISHED_OUTPUT_MAX_CHARS',
    'TOOL_OUTPUT_TOOL',
    'emptyTotals',
    'isFinalReportName',
    'isModelError',
    'isOutputFormat',
    'isRetryableKind',
  ]);
});

test('@agent/protocol/util exports exactly these values', async () => {
  expect(Object.keys(await import('@agent/protocol/util')).sort()).toEqual([
    'CHARS_PER_TOKEN',
    'DURATION_ALLOWED',
    'STORE_ID_ALLOWED',
    'abortableSleep',
    'conversationIdProblem',
    'countNewlines',
    'describeValue',
    'errorMessage',
    'finiteNumber',
    'heuristicTokens',
    'isPositiveInteger',
    'isRecord',
    'isStoreId',
    'nonRegularKind',
    'parseDurationMs',
    'parseToolArguments',
    'utf8PrefixLength',
  ]);
});
