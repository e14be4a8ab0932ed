// Profiling aid (not a suite): K sessions of one agent-loop contender held in flight on their
// final request by the real model server (over HTTP, as in the suite's memory phase), heap
// snapshots written before and during after forced GC, and self sizes by constructor compared.
// `node --import tsx --expose-gc src/agent-loop/heap-snapshot.ts <contender> <K> <turns> <dir>`
import { join } from 'node:path';
import { writeHeapSnapshot } from 'node:v8';
import { sizesByConstructor } from '../core-inprocess/heap-sizes.js';
import { contenderById } from './contenders/index.js';
import { FINAL_ANSWER, promptFor } from './script.js';
import { startServerProcess } from './server-launcher.js';

const [contenderId = 'agent-core', countText = '1000', turnsText = '1', dir = '.'] = process.argv.slice(2);
const count = Number(countText);
const turns = Number(turnsText);
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with --expose-gc');

const server = await startServerProcess();
try {
  const runSession = await (await contenderById(contenderId).load())(server.baseURL);
  for (let i = 0; i < 20; i++) await runSession(promptFor({ turns }), turns);
  gc();
  const before = writeHeapSnapshot(join(dir, `${contenderId}-before.heapsnapshot`));
  const phase = `heap-${process.pid}`;
  const held = server.waitHeld(phase);
  const prompt = promptFor({ turns, hold: { phase, count } });
  const sessions = Array.from({ length: count }, () => runSession(prompt, turns));
  await held;
  gc();
  gc();
  const during = writeHeapSnapshot(join(dir, `${contenderId}-during.heapsnapshot`));
  // Printed before the release: a session whose held call timed out meanwhile (writing the
  // snapshots takes minutes) retries into a hold that is never released.
  process.stdout.write(sizesByConstructor(before, during, count, `${contenderId}, `));
  server.release(phase);
  const outcomes = await Promise.race([
    Promise.all(sessions),
    new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 30_000).unref()),
  ]);
  const answered = outcomes?.filter((outcome) => outcome.finalText === FINAL_ANSWER).length ?? 0;
  process.stdout.write(`${answered} of ${count} sessions answered after the release\n`);
} finally {
  await server.close();
}
