// Profiling aid (not a suite): K sessions of one agent-loop contender held in flight on their
// final request by the real model server, heap snapshots written before and during (kept in
// <dir>), and self sizes by constructor compared per session.
// `node --import tsx --expose-gc src/agent-loop/heap-snapshot.ts <contender> <K> <dir>`
import { formatGrowth } from '../core-inprocess/heap-sizes.js';
import { heldSessionHeap } from './heap-breakdown.js';

const [contenderId = 'agent-core', countText = '1000', dir = '.'] = process.argv.slice(2);
const breakdown = await heldSessionHeap(contenderId, Number(countText), dir);
process.stdout.write(formatGrowth(breakdown.rows, `${contenderId}, `));
process.stdout.write(`${breakdown.answered} of ${breakdown.held} sessions answered after the release\n`);
