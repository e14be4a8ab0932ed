import { opendir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { EvalRunFile } from '@agent/protocol';
import { isStoreId } from '@agent/protocol/util';
import { recordFileName } from '@agent/runtime';
import type { EvalRunEntry } from './eval-listing.js';
import { EVAL_RUN_ID } from './eval-run-read.js';
import type { LiveSessionLimits } from './live-session.js';
import type { SessionSource } from './session-source.js';
import type { SessionView } from './view-model.js';
import { runInViewerWorker } from './viewer-worker.js';

export interface EvalSourceOptions {
  /** `--evals <dir>`: where `agent eval --out` wrote its runs (`<runId>/results.json`, `<runId>/records/`). */
  dir: string;
  /** Runs listed (the most recently written ones). */
  maxRuns: number;
  limits: LiveSessionLimits;
}

/** Directory entries looked at in the evals directory at most (a bound for a huge one). */
const MAX_ENTRIES_SCANNED = 10_000;

export type EvalRunRead =
  | { ok: true; run: EvalRunFile }
  | { ok: false; status: 400 | 404 | 422; error: string };

interface Known {
  modifiedAt: number;
  size: number;
  entry: EvalRunEntry;
}

/**
 * The eval runs of one directory, as `@agent/evals` writes them: each run's results read in the
 * viewer's worker thread (bounded, kind and version checked), and its cases' session records.
 */
export class EvalRunSource {
  private readonly known = new Map<string, Known>();

  constructor(private readonly options: EvalSourceOptions) {}

  get dir(): string {
    return this.options.dir;
  }

  /** Newest first; a run whose results cannot be read is listed with why. */
  async list(): Promise<EvalRunEntry[]> {
    const runs = await this.runDirs();
    const entries: EvalRunEntry[] = [];
    // One run at a time: at most one results file is in memory in full.
    for (const run of runs) {
      let known = this.known.get(run.runId);
      if (known === undefined || known.modifiedAt !== run.modifiedAt || known.size !== run.size) {
        known = { modifiedAt: run.modifiedAt, size: run.size, entry: await this.readListing(run.runId) };
        this.known.set(run.runId, known);
      }
      entries.push(known.entry);
    }
    const listed = new Set(runs.map((run) => run.runId));
    for (const runId of this.known.keys()) if (!listed.has(runId)) this.known.delete(runId);
    return entries.sort((a, b) => startedAt(b) - startedAt(a));
  }

  /** One run's results, or why not (a bad id, no such run, an unreadable or newer file). */
  async get(runId: string): Promise<EvalRunRead> {
    if (!EVAL_RUN_ID.test(runId))
      return {
        ok: false,
        status: 400,
        error: `run id: expected 1-100 letters, digits, ".", "_" or "-", not ${JSON.stringify(runId)}`,
      };
    const path = this.resultsPath(runId);
    if (!(await isFile(path)))
      return { ok: false, status: 404, error: `no eval run ${runId} in ${this.dir}` };
    const outcome = await runInViewerWorker<EvalRunFile>({ path, part: 'eval-run' });
    if (!outcome.ok) return { ok: false, status: 422, error: outcome.message };
    return { ok: true, run: outcome.value };
  }

  /** A case's session, from the `records/` directory of the run that holds it. */
  async session(id: string): Promise<SessionView | undefined> {
    if (!isStoreId(id)) return undefined;
    // No evals directory (any more): no case sessions.
    for (const run of await this.runDirs().catch(() => [])) {
      const path = join(this.dir, run.runId, 'records', recordFileName(id));
      if (!(await isFile(path))) continue;
      const outcome = await runInViewerWorker<SessionView>({
        path,
        limits: this.options.limits,
        part: 'view',
      });
      if (outcome.ok) return outcome.value;
    }
    return undefined;
  }

  private resultsPath(runId: string): string {
    return join(this.dir, runId, 'results.json');
  }

  private async readListing(runId: string): Promise<EvalRunEntry> {
    const outcome = await runInViewerWorker<EvalRunEntry>({
      path: this.resultsPath(runId),
      part: 'eval-listing',
    });
    // The directory's name is the run's address (`#eval:<runId>`), whatever the file says.
    return outcome.ok ? { ...outcome.value, runId } : { runId, error: outcome.message };
  }

  /** The run directories holding a results file, the most recently written `maxRuns` of them. */
  private async runDirs(): Promise<{ runId: string; modifiedAt: number; size: number }[]> {
    const runs: { runId: string; modifiedAt: number; size: number }[] = [];
    let scanned = 0;
    for await (const entry of await opendir(this.dir)) {
      if (++scanned > MAX_ENTRIES_SCANNED) break;
      if (!entry.isDirectory() || !EVAL_RUN_ID.test(entry.name)) continue;
      const info = await stat(this.resultsPath(entry.name)).catch(() => undefined);
      if (info?.isFile()) runs.push({ runId: entry.name, modifiedAt: info.mtimeMs, size: info.size });
    }
    return runs.sort((a, b) => b.modifiedAt - a.modifiedAt).slice(0, this.options.maxRuns);
  }
}

function startedAt(entry: EvalRunEntry): number {
  return 'startedAt' in entry ? entry.startedAt : 0;
}

async function isFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isFile() === true;
}

/** `source` with the eval cases' sessions besides (for operators: those records have no owner). */
export function withEvalSessions(source: SessionSource, evals: EvalRunSource): SessionSource {
  return {
    list: () => source.list(),
    get: async (id) => (await source.get(id)) ?? (await evals.session(id)),
    subscribe: (listener) => source.subscribe(listener),
  };
}
