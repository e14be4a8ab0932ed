#!/usr/bin/env node
// The `agent` command. This file is committed so that `pnpm install` links the bin before any
// build; it runs the built program, or says what to run when there is none yet.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const built = new URL('../dist/agent.js', import.meta.url);
if (!existsSync(built)) {
  process.stderr.write(`agent: ${fileURLToPath(built)} is not built yet: run \`pnpm build\` first\n`);
  process.exit(1);
}
await import(built.href);
