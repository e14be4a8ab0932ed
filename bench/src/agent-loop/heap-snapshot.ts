// Profiling aid (not a suite): K sessions of one agent-loop contender held in flight on their
// final request by the real model server, heap snapshots written before and during (kept in
// <dir>), and self sizes by constructor compared per session.
// `node --import tsx --expose-gc src/agent-loop/heap-snapshot.ts <contender> <K> <dir>`
import { heldSessionHeap } from './heap-breakdown.js';

const [contenderId = 'agent-core', countText = '1000', dir = '.'] = process.argv.slice(2);
const breakdown = await heldSessionHeap(contenderId, Number(countText), dir);
const lines = [
  `${contenderId}, heap per session (self sizes, during - before): ${(breakdown.totalBytes / 1024).toFixed(1)} KB`,
];
for (const row of breakdown.rows.slice(0, 60))
  lines.push(`${row.bytes.toFixed(0).padStart(7)} B ${row.objects.toFixed(2).padStart(6)} obj  ${row.name}`);
lines.push(`${breakdown.answered} of ${breakdown.held} sessions answered after the release`);
process.stdout.write(`${lines.join('\n')}\n`);
