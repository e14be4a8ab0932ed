#!/usr/bin/env bash
# Scaffolds a library package: tooling/new-package.sh <name> "<description>"
set -euo pipefail
name=$1; desc=$2
dir=packages/$name
mkdir -p "$dir/src" "$dir/test"
cat > "$dir/package.json" <<JSON
{
  "name": "@agent/$name",
  "version": "0.1.0",
  "description": "$desc",
  "type": "module",
  "license": "MIT",
  "sideEffects": false,
  "engines": { "node": ">=20.19" },
  "exports": {
    ".": {
      "@agent/source": "./src/index.ts",
      "types": "./dist/index.d.ts",
      "import": "./dist/index.js"
    },
    "./package.json": "./package.json"
  },
  "main": "./dist/index.js",
  "types": "./dist/index.d.ts",
  "files": ["dist", "src"],
  "publishConfig": { "access": "public" },
  "scripts": {
    "build": "tsup",
    "typecheck": "tsc --noEmit",
    "lint": "biome check src test",
    "test": "vitest run",
    "check-exports": "publint --strict && attw --pack . --profile esm-only"
  }
}
JSON
cat > "$dir/tsconfig.json" <<JSON
{
  "extends": "../../tsconfig.base.json",
  "compilerOptions": { "noEmit": true },
  "include": ["src", "test", "*.ts"]
}
JSON
cat > "$dir/tsup.config.ts" <<'TS'
import { libraryBuild } from '../../tooling/tsup/library.js';

export default libraryBuild();
TS
cat > "$dir/vitest.config.ts" <<TS
import { libraryTestConfig } from '../../tooling/vitest/shared.js';

export default libraryTestConfig();
TS
