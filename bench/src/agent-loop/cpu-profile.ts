// Summarises a V8 `.cpuprofile` (from `node --cpu-prof`), optionally only inside a time window
// (the measured runs): self time per function, per area (package or runtime part), and charged
// to the nearest project function on the stack (who made the SDK, HTTP or runtime do the work).

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface SelfTime {
  name: string;
  /** Where it lives: a package, `node` internals, or a V8 pseudo-frame such as `(garbage collector)`. */
  area: string;
  ms: number;
  /** Share of the busy (non-idle) samples. */
  percent: number;
}

export interface ProfileSummary {
  /** Busy milliseconds in the window (idle excluded). */
  busyMs: number;
  /** False when the window did not overlap the profile and the whole profile was used. */
  windowed: boolean;
  functions: SelfTime[];
  areas: SelfTime[];
  /** Self time charged to the nearest frame of a project package (`@agent/*`) on the stack. */
  byProjectCaller: SelfTime[];
}

/** Samples whose stack holds no project frame (socket reads, stream pumping, timers, GC). */
export const NO_PROJECT_FRAME = '(no @agent frame on the stack)';

const AREAS: [RegExp, string][] = [
  [/\/packages\/([\w-]+)\//, '@agent/$1'],
  [/node_modules\/\.pnpm\/[^/]+\/node_modules\/(@[\w.-]+\/[\w.-]+|[\w.-]+)\//, '$1'],
  [/node_modules\/(@[\w.-]+\/[\w.-]+|[\w.-]+)\//, '$1'],
  [/^node:internal\/deps\/undici/, 'undici (Node fetch)'],
  [/^node:/, 'node internals'],
  [/\/bench\/src\//, 'bench harness'],
  [/^wasm:/, 'wasm (llhttp, the HTTP parser of Node fetch)'],
];

function areaOf(frame: CallFrame): string {
  if (frame.url === '') return frame.functionName.startsWith('(') ? frame.functionName : 'native';
  for (const [pattern, replacement] of AREAS) {
    const match = pattern.exec(frame.url);
    if (match !== null) return match[0].replace(pattern, replacement);
  }
  return frame.url;
}

function shortUrl(url: string): string {
  const modules = url.lastIndexOf('node_modules/');
  if (modules !== -1) return url.slice(modules + 'node_modules/'.length);
  for (const root of ['/packages/', '/bench/src/']) {
    const at = url.indexOf(root);
    if (at !== -1) return url.slice(at + 1);
  }
  return url.replace(/^file:\/\//, '');
}

function nameOf(frame: CallFrame): string {
  const fn = frame.functionName === '' ? '(anonymous)' : frame.functionName;
  if (frame.url === '') return fn;
  return `${fn} ${shortUrl(frame.url)}:${frame.lineNumber + 1}`;
}

class Tally {
  private readonly totals = new Map<string, { area: string; us: number }>();

  add(name: string, area: string, us: number): void {
    const entry = this.totals.get(name);
    if (entry === undefined) this.totals.set(name, { area, us });
    else entry.us += us;
  }

  ranked(busyUs: number, top: number): SelfTime[] {
    return [...this.totals.entries()]
      .sort((a, b) => b[1].us - a[1].us)
      .slice(0, top)
      .map(([name, { area, us }]) => ({ name, area, ms: us / 1000, percent: (100 * us) / busyUs }));
  }
}

interface NodeInfo {
  frame: CallFrame;
  area: string;
  name: string;
  parent?: number;
  /** The nearest node at or above this one whose frame is project code, if any. */
  projectCaller?: { name: string; area: string } | null;
}

function indexNodes(profile: CpuProfile): Map<number, NodeInfo> {
  const nodes = new Map<number, NodeInfo>();
  for (const node of profile.nodes) {
    nodes.set(node.id, { frame: node.callFrame, area: areaOf(node.callFrame), name: nameOf(node.callFrame) });
  }
  for (const node of profile.nodes) {
    for (const child of node.children ?? []) {
      const info = nodes.get(child);
      if (info !== undefined) info.parent = node.id;
    }
  }
  return nodes;
}

function projectCallerOf(nodes: Map<number, NodeInfo>, id: number): { name: string; area: string } | null {
  const info = nodes.get(id);
  if (info === undefined) return null;
  if (info.projectCaller !== undefined) return info.projectCaller;
  const found = info.area.startsWith('@agent/')
    ? { name: info.name, area: info.area }
    : info.parent === undefined
      ? null
      : projectCallerOf(nodes, info.parent);
  info.projectCaller = found;
  return found;
}

/** A span of a profile's clock, microseconds (`process.hrtime` / 1000, as `--cpu-prof` counts). */
export type ProfileWindow = readonly [number, number];

/**
 * Self time per function and area, and per nearest project caller; `windowsUs` (spans of the
 * profile's clock, e.g. one per burst) keeps the samples inside them. Spans outside the profile
 * are dropped; when none is left the whole profile is used (`windowed: false`).
 */
export function summariseProfile(
  profile: CpuProfile,
  windowsUs: readonly ProfileWindow[] = [],
  top = 12,
): ProfileSummary {
  const nodes = indexNodes(profile);
  const spans = windowsUs.filter(([start, end]) => end >= profile.startTime && start <= profile.endTime);
  const window = spans.length > 0 ? spans : undefined;
  const functions = new Tally();
  const areas = new Tally();
  const callers = new Tally();
  let busyUs = 0;
  let time = profile.startTime + (profile.timeDeltas[0] ?? 0);
  for (let i = 0; i < profile.samples.length; i++) {
    // A sample stands for the time until the next one (the last one for the mean interval).
    const next = profile.timeDeltas[i + 1];
    const duration = next ?? (profile.endTime - profile.startTime) / Math.max(1, profile.samples.length);
    const at = time;
    time += next ?? 0;
    if (window !== undefined && !window.some(([start, end]) => at >= start && at <= end)) continue;
    const id = profile.samples[i] ?? -1;
    const info = nodes.get(id);
    if (info === undefined || info.frame.functionName === '(idle)') continue;
    busyUs += duration;
    functions.add(info.name, info.area, duration);
    areas.add(info.area, info.area, duration);
    const caller = projectCallerOf(nodes, id);
    callers.add(caller?.name ?? NO_PROJECT_FRAME, caller?.area ?? '', duration);
  }
  return {
    busyMs: busyUs / 1000,
    windowed: window !== undefined,
    functions: functions.ranked(busyUs, top),
    areas: areas.ranked(busyUs, top),
    byProjectCaller: callers.ranked(busyUs, top),
  };
}
