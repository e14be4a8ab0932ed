#!/usr/bin/env node
import { runMain } from './main.js';
import { buildProgram } from './program.js';
import { expandShorthand } from './shorthand.js';

const COMMANDS = ['run', 'resume', 'validate', 'list', 'inspect', 'demo', 'init', 'mcp', 'help'];

runMain('agent', async (setCode) => {
  await buildProgram(setCode).parseAsync(expandShorthand(process.argv.slice(2), COMMANDS), { from: 'user' });
});
