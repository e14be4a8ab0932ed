// One measurement in a fresh process: `child.ts <turns> <sessions> <runs> [checkout]` runs
// agent-core sessions against the in-process model and prints the CPU per turn of each run as
// JSON. With a checkout (another built copy of the repository), its core and providers run.
import { pathToFileURL } from 'node:url';
import { FINAL_ANSWER, MODEL, promptFor } from '../agent-loop/script.js';
import { inProcessModel, scriptAgent, warmupSessions } from './in-process-model.js';

const [turns, sessions, runs] = process.argv.slice(2, 5).map(Number) as [number, number, number];
const checkout = process.argv[5];
const built = (pkg: string) =>
  checkout === undefined ? `@agent/${pkg}` : pathToFileURL(`${checkout}/packages/${pkg}/dist/index.js`).href;
const { defineAgent, run, tool } = (await import(built('core'))) as typeof import('@agent/core');
const { createModelClient } = (await import(built('providers'))) as typeof import('@agent/providers');
const gc = (globalThis as { gc?: () => void }).gc;
// The tokenizer an `openai` client of this model counts with (no request is made).
const counter = createModelClient({ type: 'openai', provider: 'openai', model: MODEL, apiKey: 'unused' });
const countTokens = counter.countTokens?.bind(counter);
const agent = scriptAgent({ defineAgent, tool }, inProcessModel(countTokens), turns);
const prompt = promptFor({ turns });
let events = 0;
let answered = 0;
async function session(): Promise<void> {
  const result = await run(agent, prompt, { onEvent: () => void events++ });
  if (!result.success) throw new Error(`core-inprocess: ${result.exitCode}: ${result.error}`);
  if (result.finalReport.content !== FINAL_ANSWER)
    throw new Error(`core-inprocess: answered ${JSON.stringify(result.finalReport.content)}`);
  answered++;
}
for (let i = 0; i < warmupSessions(turns); i++) await session();
const perTurnUs: number[] = [];
for (let r = 0; r < runs; r++) {
  gc?.();
  const start = process.cpuUsage();
  for (let i = 0; i < sessions; i++) await session();
  const used = process.cpuUsage(start);
  perTurnUs.push((used.user + used.system) / sessions / (turns + 1));
}
process.stdout.write(`${JSON.stringify({ perTurnUs, events, answered })}\n`);
