import { expect, test } from 'vitest';

// The public surface, pinned (types are not listed: they vanish at run time). Adding or removing an
// export is a visible change to this list; internals stay unexported or under `/internal`.
test('@agent/providers exports exactly these values', async () => {
  expect(Object.keys(await import('@agent/providers')).sort()).toEqual([
    'AnthropicClient',
    'DEFAULT_PRICING',
    'DEFAULT_PRICING_DATE',
    'MODEL_SHORTHANDS',
    'OpenAIChatClient',
    'OpenAIResponsesClient',
    'PROVIDER_TYPES',
    'REPEAT_PENALTY_FIELDS',
    'SAMPLING_PARAMS',
    'TOOL_ID_FORMATS',
    'ToolCallAssembler',
    'classifyError',
    'computeCostUsd',
    'createModelClient',
    'lookupPricing',
    'model',
    'parseModelId',
    'redactSecrets',
    'resolveRequestRules',
    'retryAfterMsFromHeaders',
    'validateConfig',
  ]);
});
