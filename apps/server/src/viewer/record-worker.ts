import { readSessionRecord } from '@agent/runtime';
import { evalRunListing } from './eval-listing.js';
import { readEvalRun } from './eval-run-read.js';
import type { LiveSessionLimits } from './live-session.js';
import { recordView } from './record-view.js';
import { summary } from './view-model.js';

/** One record file to read, and whether the page wants all of it or its line in the list. */
export interface RecordJob {
  path: string;
  limits: LiveSessionLimits;
  part: 'view' | 'summary';
}

/** One eval run's `results.json` to read, whole or as its line in the runs list. */
export interface EvalRunJob {
  path: string;
  part: 'eval-run' | 'eval-listing';
}

export type ViewerJob = RecordJob | EvalRunJob;

/**
 * The worker thread's task (built to dist/record-worker.js, run by the viewer's `WorkerPool`):
 * reads a record with the runtime's bounded reader and makes the viewer's view of it, or reads
 * an eval run's results, so the server's event loop never inflates or parses either. Throws
 * for an unreadable file.
 */
export default async function readInWorker(job: ViewerJob): Promise<unknown> {
  if (!('limits' in job))
    return job.part === 'eval-run' ? readEvalRun(job.path) : evalRunListing(readEvalRun(job.path));
  const view = recordView(await readSessionRecord(job.path), job.limits);
  return job.part === 'summary' ? summary(view) : view;
}
