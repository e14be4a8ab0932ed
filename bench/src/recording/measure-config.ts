// One configuration of the recording suite (a transport and a session length): the unrecorded
// and the recorded runner side by side in a fresh workspace, warmed up, then measured in
// batches whose order alternates, so load that drifts over the run moves both alike. The
// 20-turn configurations also time `replay()` of one of their records.
import { join } from 'node:path';
import { type RecordSize, recordSizes } from './record-size.js';
import { firstRecord, type ReplayTimes, timeReplays } from './replay-timing.js';
import { type Batch, openVariant, runBatch, type Transport, type Variant } from './sessions.js';
import { openWorkspace } from './workspace.js';

export interface ConfigPlan {
  transport: Transport;
  pages: number;
  /** Measured batches per variant, and sessions per batch. */
  runs: number;
  batch: number;
  /** Unmeasured sessions per variant first. */
  warmup: number;
  /** Replays of one of the records, after `warmup` unmeasured ones (absent: no replay). */
  replay?: { runs: number; warmup: number };
  /** Records read for their sizes. */
  sizeSample: number;
}

export interface ConfigFigures {
  transport: Transport;
  pages: number;
  /** Model calls per session (the pages, then the report). */
  turns: number;
  /** CPU ms per turn of each measured batch, in run order. */
  cpuPerTurn: { off: number[]; on: number[] };
  /** Wall ms of every measured session. */
  sessionWallMs: { off: number[]; on: number[] };
  sessions: { off: number; on: number };
  /** Sessions that did not commit the scripted report, with why. */
  wrong: string[];
  /** Page API hits over the expected ones (a tool call per page per session, warm-up included). */
  apiHits: { seen: number; expected: number };
  /** Requests the strict model server refused (HTTP only). */
  rejected: number;
  size: RecordSize;
  replay?: ReplayTimes & { apiHitsDuring: number };
}

const perTurn = (batch: Batch, sessions: number, turns: number) => batch.cpuMs / (sessions * turns);

export async function measureConfig(plan: ConfigPlan): Promise<ConfigFigures> {
  const { transport, pages } = plan;
  const turns = pages + 1;
  const workspace = await openWorkspace();
  const variants: Variant[] = [];
  try {
    const off = await openVariant(workspace, transport, pages, undefined);
    variants.push(off);
    const on = await openVariant(workspace, transport, pages, join(workspace.dir, 'records'));
    variants.push(on);
    for (const variant of variants) await runBatch(variant, pages, plan.warmup);
    const cpuPerTurn = { off: [] as number[], on: [] as number[] };
    const sessionWallMs = { off: [] as number[], on: [] as number[] };
    for (let run = 0; run < plan.runs; run++) {
      const order = run % 2 === 0 ? [off, on] : [on, off];
      for (const variant of order) {
        const batch = await runBatch(variant, pages, plan.batch);
        const key = variant.recording ? 'on' : 'off';
        cpuPerTurn[key].push(perTurn(batch, plan.batch, turns));
        sessionWallMs[key].push(...batch.sessionWallMs);
      }
    }
    const sessions = { off: off.sessions, on: on.sessions };
    const figures: ConfigFigures = {
      transport,
      pages,
      turns,
      cpuPerTurn,
      sessionWallMs,
      sessions,
      wrong: [...off.wrong, ...on.wrong],
      apiHits: { seen: workspace.apiHits(), expected: (sessions.off + sessions.on) * pages },
      rejected: workspace.model.requests.filter((request) => request.rejected !== undefined).length,
      size: recordSizes(on.recordsDir!, plan.sizeSample),
    };
    if (plan.replay !== undefined) {
      const hitsBefore = workspace.apiHits();
      const times = await timeReplays(firstRecord(on.recordsDir!), workspace.resolve, plan.replay);
      figures.replay = { ...times, apiHitsDuring: workspace.apiHits() - hitsBefore };
    }
    return figures;
  } finally {
    for (const variant of variants) await variant.runner.close();
    await workspace.close();
  }
}
