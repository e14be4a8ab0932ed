import { expect, test } from 'vitest';

// The public surface, pinned (types are not listed: they vanish at run time). Adding or removing an
// export is a visible change to this list; internals stay unexported or under `/internal`.
test('@agent/testkit exports exactly these values', async () => {
  expect(Object.keys(await import('@agent/testkit')).sort()).toEqual([
    'FAKE_SLACK_BOT',
    'FIXTURES_DIR_ENV',
    'FLAVOURS',
    'NONCE_PLACEHOLDER',
    'UnplannedCallError',
    'defaultFixturesDir',
    'estimateUsage',
    'fillNonce',
    'finalReport',
    'freePort',
    'loadedTools',
    'planAnswer',
    'receivedTree',
    'scriptedModel',
    'sessionNonce',
    'startFakeSlack',
    'startModelServer',
    'startOtlpReceiver',
    'startRedisCluster',
    'startRedisServer',
    'streamedFinalReport',
    'text',
    'toolCall',
    'toolCalls',
  ]);
});
