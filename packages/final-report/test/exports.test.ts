import { expect, test } from 'vitest';

// The public surface, pinned (types are not listed: they vanish at run time). Adding or removing an
// export is a visible change to this list; internals stay unexported or under `/internal`.
test('@agent/final-report exports exactly these values', async () => {
  expect(Object.keys(await import('@agent/final-report')).sort()).toEqual([
    'DEFAULT_JSON_SCHEMA',
    'FINAL_REPORT_ERROR_SLUGS',
    'MAX_DIAGNOSTICS',
    'MAX_DIAGNOSTIC_LENGTH',
    'MAX_JSON_DEPTH',
    'MAX_REPAIR_ROUNDS',
    'SLACK_LIMITS',
    'SLACK_MESSAGES_SCHEMA',
    'checkWrapper',
    'clampText',
    'compileSchema',
    'decodeBase64Text',
    'finalReportToolDefinition',
    'finalReportToolSchema',
    'formatAjvErrors',
    'markdownToMrkdwn',
    'normaliseMessages',
    'parseJsonLenient',
    'processFinalReport',
    'rejectedReport',
    'slackPlainText',
    'syntheticFailureReport',
    'validateWithNestedRepair',
  ]);
});
