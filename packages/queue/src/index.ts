export { QUEUE_ERROR_CODE, QueueError } from './errors.js';
export { DEFAULT_QUEUE_NAME, type JobStreamEntry, type RunJobData } from './job.js';
export { parseProviderCap } from './provider-cap-flag.js';
export type { ProviderLease } from './provider-caps.js';
export { checkQueueUrl } from './queue-url.js';
export {
  createRunQueue,
  DEFAULT_MAX_WAITING,
  type QueueRefusal,
  type RunQueue,
  type RunQueueOptions,
  type SubmitOptions,
} from './run-queue.js';
export { openRunWorker } from './run-worker.js';
export { openQueueSessionStore, WorkerSessionStore } from './worker-store.js';
export type {
  QueueAgent,
  QueueRunOptions,
  RunWorker,
  RunWorkerOptions,
  WorkerAgent,
  WorkerAgents,
} from './worker-types.js';
