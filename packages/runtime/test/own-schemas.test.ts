// The runtime's own schemas are compiled ahead, without the meta-schema check (own-schemas.ts);
// this is that check, once, and the check that the generated validators are current.
import { readFileSync } from 'node:fs';
import { createAjv, standaloneValidators } from '@agent/schema';
import { describe, expect, it } from 'vitest';
import { FRONTMATTER_SCHEMA, SETTINGS_SCHEMA } from '../src/agent-file/keys.js';
import { CONFIG_SCHEMA } from '../src/config/schema.js';
import { GENERATED_HEADER, OWN_SCHEMAS, OWN_VALIDATOR_OPTIONS } from '../src/validators/own-schemas.js';

describe("the runtime's own schemas", () => {
  it.each([
    ['agent.json', CONFIG_SCHEMA],
    ['frontmatter', FRONTMATTER_SCHEMA],
    ['setting overrides', SETTINGS_SCHEMA],
  ])('the %s schema is a valid draft-07 schema', (_name, schema) => {
    const ajv = createAjv('draft-07');
    expect(ajv.validateSchema(schema), ajv.errorsText()).toBe(true);
  });

  it('a broken schema is caught by the same check', () => {
    const ajv = createAjv('draft-07');
    expect(ajv.validateSchema({ ...CONFIG_SCHEMA, type: 'no-such-type' })).toBe(false);
  });

  it('the generated validators are those of the schemas as they are now (else: pnpm --filter @agent/runtime generate)', () => {
    const generated = readFileSync(
      new URL('../src/validators/own-validators.generated.js', import.meta.url),
      'utf8',
    );
    expect(generated === GENERATED_HEADER + standaloneValidators(OWN_SCHEMAS, OWN_VALIDATOR_OPTIONS)).toBe(
      true,
    );
  });
});
