// One contender's server in a process of its own (forked by the suite with --expose-gc):
// serves until told to exit and measures its own peak heap / RSS growth during a burst.
import { answerParent } from '../harness/child-process.js';
import { contenderById, inFlight } from './contenders.js';
import type { ServedCommand, ServedReply } from './ipc.js';

const [contenderId, maxConcurrency] = process.argv.slice(2);
if (contenderId === undefined || maxConcurrency === undefined) {
  throw new Error('usage: served-process.ts <contender-id> <max-concurrency>');
}
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('served-process: run with --expose-gc');
/** How often the peak is sampled during a burst. */
const SAMPLE_MS = 10;

const served = await contenderById(contenderId).start(Number(maxConcurrency));

interface Sampling {
  baseHeap: number;
  baseRss: number;
  peakHeap: number;
  peakRss: number;
  cpu: NodeJS.CpuUsage;
  timer: NodeJS.Timeout;
}
let sampling: Sampling | undefined;

function startSampling(): void {
  gc?.();
  gc?.();
  const { heapUsed, rss } = process.memoryUsage();
  const state = {
    baseHeap: heapUsed,
    baseRss: rss,
    peakHeap: heapUsed,
    peakRss: rss,
    cpu: process.cpuUsage(),
  };
  const timer = setInterval(() => {
    const now = process.memoryUsage();
    state.peakHeap = Math.max(state.peakHeap, now.heapUsed);
    state.peakRss = Math.max(state.peakRss, now.rss);
  }, SAMPLE_MS);
  sampling = Object.assign(state, { timer });
}

/** How long `retained` waits for the sessions to be in flight at once. */
const RETAINED_WAIT_MS = 10_000;

/**
 * Waits (polling every ms) until `count` sessions stream at once, or until the first of them
 * finishes (under load the last connect after the first finish), then collects and weighs the heap.
 */
async function retained(count: number): Promise<{ heapGrowth: number; inFlight: number; reached: boolean }> {
  if (sampling === undefined) throw new Error('served-process: retained without memory-start');
  const deadline = Date.now() + RETAINED_WAIT_MS;
  const finished = inFlight.finished;
  while (inFlight.count < count && inFlight.finished === finished && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 1));
  const now = inFlight.count;
  gc?.();
  gc?.();
  return {
    heapGrowth: process.memoryUsage().heapUsed - sampling.baseHeap,
    inFlight: now,
    reached: now >= count,
  };
}

answerParent<ServedCommand, ServedReply>(async (command) => {
  switch (command.type) {
    case 'url':
      return { id: command.id, type: 'url', url: served.url };
    case 'memory-start':
      startSampling();
      return { id: command.id, type: 'memory-start' };
    case 'mark':
      return { id: command.id, type: 'mark', atUs: Number(process.hrtime.bigint() / 1000n) };
    case 'retained':
      return { id: command.id, type: 'retained', ...(await retained(command.count)) };
    case 'memory-stop': {
      if (sampling === undefined) throw new Error('served-process: memory-stop without memory-start');
      clearInterval(sampling.timer);
      const cpu = process.cpuUsage(sampling.cpu);
      return {
        id: command.id,
        type: 'memory-stop',
        peakHeapGrowth: sampling.peakHeap - sampling.baseHeap,
        peakRssGrowth: sampling.peakRss - sampling.baseRss,
        cpuMs: (cpu.user + cpu.system) / 1000,
      };
    }
    default:
      throw new Error(`served-process: unknown command ${command.type}`);
  }
});
