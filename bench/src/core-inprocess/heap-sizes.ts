// Self sizes by constructor of two heap snapshots of one process, per held session.
import { readFileSync } from 'node:fs';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
  nodes: number[];
  strings: string[];
}

function byConstructor(file: string): Map<string, { size: number; count: number }> {
  const snap = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
  const fields = snap.snapshot.meta.node_fields;
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const types = snap.snapshot.meta.node_types[0];
  const totals = new Map<string, { size: number; count: number }>();
  for (let i = 0; i < snap.nodes.length; i += width) {
    const type = types[snap.nodes[i + typeAt]!]!;
    const name =
      type === 'object' || type === 'closure' ? snap.strings[snap.nodes[i + nameAt]!]! : `(${type})`;
    const key = type === 'closure' ? `closure ${name === '' ? '(anonymous)' : name}` : name;
    const entry = totals.get(key) ?? { size: 0, count: 0 };
    entry.size += snap.nodes[i + sizeAt]!;
    entry.count++;
    totals.set(key, entry);
  }
  return totals;
}

/** One constructor's growth per held session between two snapshots. */
export interface ConstructorGrowth {
  name: string;
  bytes: number;
  objects: number;
}

/** Heap growth per session from `before` to `during`, by constructor, largest first. */
export function growthByConstructor(before: string, during: string, count: number): ConstructorGrowth[] {
  const a = byConstructor(before);
  const b = byConstructor(during);
  const rows = [...b.entries()].map(([name, { size, count: n }]) => {
    const base = a.get(name) ?? { size: 0, count: 0 };
    return { name, bytes: (size - base.size) / count, objects: (n - base.count) / count };
  });
  return rows.sort((x, y) => y.bytes - x.bytes);
}

/** Growth rows as printable lines, under a total; `label` starts the first line. */
export function formatGrowth(rows: readonly ConstructorGrowth[], label = ''): string {
  const total = rows.reduce((sum, row) => sum + row.bytes, 0);
  const lines = [`${label}heap per session (self sizes, during - before): ${(total / 1024).toFixed(1)} KB`];
  for (const row of rows.slice(0, 60))
    lines.push(
      `${row.bytes.toFixed(0).padStart(7)} B ${row.objects.toFixed(2).padStart(6)} obj  ${row.name}`,
    );
  return `${lines.join('\n')}\n`;
}

/** Heap growth per session from `before` to `during`, by constructor, as printable lines. */
export function sizesByConstructor(before: string, during: string, count: number, label = ''): string {
  return formatGrowth(growthByConstructor(before, during, count), label);
}
