import { readSessionRecord } from '@agent/runtime';
import type { LiveSessionLimits } from './live-session.js';
import { recordView } from './record-view.js';
import { type SessionSummary, type SessionView, summary } from './view-model.js';

/** One record file to read, and whether the page wants all of it or its line in the list. */
export interface RecordJob {
  path: string;
  limits: LiveSessionLimits;
  part: 'view' | 'summary';
}

/**
 * The worker thread's task (built to dist/record-worker.js, run by `RecordSessionSource`'s
 * `WorkerPool`): reads a record with the runtime's bounded reader and makes the viewer's view of
 * it, so the server's event loop never inflates or parses a record. Throws for an unreadable file.
 */
export default async function readRecordInWorker(job: RecordJob): Promise<SessionView | SessionSummary> {
  const view = recordView(await readSessionRecord(job.path), job.limits);
  return job.part === 'summary' ? summary(view) : view;
}
