// Profiling aid (not a suite): K agent-core sessions held in flight on their final model call
// (the in-process model waits until all K are there), a heap snapshot written after forced GC,
// and self sizes by constructor compared with a snapshot taken before the sessions started.
// `node --import tsx --expose-gc src/core-inprocess/heap-snapshot.ts <K> <turns> <dir> [checkout]`
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeHeapSnapshot } from 'node:v8';
import type { ModelClient, ModelRequest, ModelStreamEvent } from '@agent/protocol';
import { FINAL_ANSWER, MODEL, promptFor } from '../agent-loop/script.js';
import { sizesByConstructor } from './heap-sizes.js';
import { inProcessModel, scriptAgent } from './in-process-model.js';

const [count, turns] = process.argv.slice(2, 4).map(Number) as [number, number];
const dir = process.argv[4] ?? '.';
const checkout = process.argv[5];
const built = (pkg: string) =>
  checkout === undefined ? `@agent/${pkg}` : pathToFileURL(`${checkout}/packages/${pkg}/dist/index.js`).href;
const { defineAgent, run, tool } = (await import(built('core'))) as typeof import('@agent/core');
const { createModelClient } = (await import(built('providers'))) as typeof import('@agent/providers');
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with --expose-gc');
const counter = createModelClient({ type: 'openai', provider: 'openai', model: MODEL, apiKey: 'unused' });
const countTokens = counter.countTokens?.bind(counter);

/** The in-process model, holding each final answer until `count` sessions wait for theirs. */
function holdingModel(): {
  model: ModelClient;
  allHeld: Promise<void>;
  release: () => void;
  hold: () => void;
} {
  const inner = inProcessModel(countTokens);
  let held = 0;
  let holding = false;
  let allHeldNow: () => void = () => {};
  const allHeld = new Promise<void>((resolve) => {
    allHeldNow = resolve;
  });
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const model: ModelClient = {
    ...inner,
    async *stream(request: ModelRequest, options): AsyncIterable<ModelStreamEvent> {
      const tools = request.messages.filter((m) => m.role === 'tool').length;
      if (holding && tools >= turns * 2 && held < count) {
        held++;
        if (held === count) allHeldNow();
        await released;
      }
      yield* inner.stream(request, options);
    },
  };
  return {
    model,
    allHeld,
    release,
    hold: () => {
      holding = true;
    },
  };
}

const { model, allHeld, release, hold } = holdingModel();
const agent = scriptAgent({ defineAgent, tool }, model, turns);
const prompt = promptFor({ turns });
// Warm-up: caches (tokenizer, notice bodies) filled before the baseline.
for (let i = 0; i < 20; i++) await run(agent, promptFor({ turns }), { onEvent: () => {} });
gc();
const before = writeHeapSnapshot(join(dir, 'before.heapsnapshot'));
hold();
let events = 0;
const sessions = Array.from({ length: count }, () => run(agent, prompt, { onEvent: () => void events++ }));
await allHeld;
gc();
gc();
const during = writeHeapSnapshot(join(dir, 'during.heapsnapshot'));
release();
for (const result of await Promise.all(sessions)) {
  if (!result.success || result.finalReport.content !== FINAL_ANSWER) throw new Error('a session failed');
}

process.stdout.write(sizesByConstructor(before, during, count, `events ${events}, `));
