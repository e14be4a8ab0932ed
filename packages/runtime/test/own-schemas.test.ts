// The runtime's own schemas are compiled without the meta-schema check at each start
// (agent-file/validate.ts); this is that check, once.
import { createAjv } from '@agent/schema';
import { describe, expect, it } from 'vitest';
import { FRONTMATTER_SCHEMA } from '../src/agent-file/keys.js';
import { CONFIG_SCHEMA } from '../src/config/schema.js';
import { SETTINGS_SCHEMA } from '../src/setting-overrides.js';

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
});
