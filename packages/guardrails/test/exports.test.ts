import { expect, test } from 'vitest';

// The public surface, pinned (types are not listed: they vanish at run time). Adding or removing an
// export is a visible change to this list.
test('@agent/guardrails exports exactly these values', async () => {
  const exported = await import('@agent/guardrails');
  expect(Object.keys(exported).sort()).toEqual([
    'JSON_SCHEMA_ACTIONS',
    'LENGTH_UNITS',
    'MAX_SPANS_PER_TEXT',
    'MAX_VALUE_DEPTH',
    'MAX_WORD_ENTRIES',
    'MAX_WORD_ENTRY_LENGTH',
    'PII_ACTIONS',
    'PII_KINDS',
    'REGEX_ACTIONS',
    'WORDS_ACTIONS',
    'jsonSchemaGuardrail',
    'maxLengthGuardrail',
    'piiGuardrail',
    'regexGuardrail',
    'wordsGuardrail',
  ]);
  expect(exported.PII_KINDS).toEqual(['email', 'phone', 'card', 'iban', 'api_key']);
  expect(exported.REGEX_ACTIONS).toEqual(['block', 'redact', 'deny', 'require']);
  expect(exported.PII_ACTIONS).toEqual(['redact', 'block']);
  expect(exported.MAX_VALUE_DEPTH).toBe(64);
  expect(exported.MAX_SPANS_PER_TEXT).toBe(100_000);
});
