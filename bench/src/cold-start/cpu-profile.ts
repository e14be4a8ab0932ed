// Where a process's CPU time went, from a V8 `.cpuprofile` (`node --cpu-prof`), per package (the
// `node_modules` package or the workspace package a script belongs to). A sample in Node's own
// code (the module loader compiling a `require`d file, a `readFileSync`) counts for the nearest
// package on its stack: loading a package's files is that package's cost.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { url: string; functionName: string };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface PackageTime {
  name: string;
  ms: number;
}

/** `node_modules/<pkg>` (scoped or not), `packages|apps/<dir>`, `node:` internals, or the V8 buckets. */
export function packageOf(url: string, functionName: string): string {
  if (url === '') return functionName === '' ? '(native)' : `(${functionName.replace(/^\(|\)$/g, '')})`;
  if (url.startsWith('node:')) return 'node internals';
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const parts = url.slice(modules + '/node_modules/'.length).split('/');
    if (parts[0] === '.pnpm') return packageOf(`/node_modules/${parts.slice(3).join('/')}`, functionName);
    return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  const workspace = /\/(packages|apps)\/([^/]+)\//.exec(url);
  return workspace ? `${workspace[1]}/${workspace[2]}` : 'other';
}

const isPackage = (name: string) => name !== 'node internals' && !name.startsWith('(');

/** Each node's package: its own, else (Node internals, native code) the nearest package above it. */
function owners(nodes: readonly ProfileNode[]): Map<number, string> {
  const parent = new Map<number, number>();
  for (const node of nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const own = (id: number) => {
    const frame = byId.get(id)!.callFrame;
    return packageOf(frame.url, frame.functionName);
  };
  const owner = new Map<number, string>();
  for (const node of nodes) {
    let name = own(node.id);
    for (let id = parent.get(node.id); !isPackage(name) && id !== undefined; id = parent.get(id)) {
      const above = own(id);
      if (isPackage(above)) name = above;
    }
    owner.set(node.id, name);
  }
  return owner;
}

/** CPU time per package of the one profile in `dir`, largest first. */
export function timeByPackage(dir: string): PackageTime[] {
  const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
  if (file === undefined) throw new Error(`no .cpuprofile in ${dir}`);
  const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
  const owner = owners(profile.nodes);
  const totals = new Map<string, number>();
  profile.samples.forEach((id, index) => {
    const name = owner.get(id) ?? 'other';
    totals.set(name, (totals.get(name) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000);
  });
  return [...totals].map(([name, ms]) => ({ name, ms })).sort((a, b) => b.ms - a.ms);
}
