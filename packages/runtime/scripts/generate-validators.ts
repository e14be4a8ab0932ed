// Writes src/validators/own-validators.generated.js (and its .d.ts): the runtime's own schemas compiled
// ahead by @agent/schema's one Ajv factory. Run: pnpm --filter @agent/runtime generate.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { standaloneValidators } from '@agent/schema';
import { GENERATED_HEADER, OWN_SCHEMAS, OWN_VALIDATOR_OPTIONS } from '../src/validators/own-schemas.js';

const target = (ext: string) =>
  fileURLToPath(new URL(`../src/validators/own-validators.generated${ext}`, import.meta.url));

writeFileSync(target('.js'), GENERATED_HEADER + standaloneValidators(OWN_SCHEMAS, OWN_VALIDATOR_OPTIONS));
const declarations = Object.keys(OWN_SCHEMAS).map(
  (name) => `export declare const ${name}: ValidateFunction;\n`,
);
writeFileSync(
  target('.d.ts'),
  `${GENERATED_HEADER}import type { ValidateFunction } from '@agent/schema';\n\n${declarations.join('')}`,
);
