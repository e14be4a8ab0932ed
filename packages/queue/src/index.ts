export { checkQueueUrl } from './connection.js';
export { QUEUE_ERROR_CODE, QueueError } from './errors.js';
export { DEFAULT_QUEUE_NAME, type JobStreamEntry, type RunJobData } from './job.js';
export { type ProviderLease, parseProviderCap } from './provider-caps.js';
export {
  createRunQueue,
  DEFAULT_MAX_WAITING,
  type QueueRefusal,
  type RunQueue,
  type RunQueueOptions,
  type SubmitOptions,
} from './run-queue.js';
export {
  openRunWorker,
  type QueueAgent,
  type QueueRunOptions,
  type RunWorker,
  type RunWorkerOptions,
  type WorkerAgent,
  type WorkerAgents,
} from './run-worker.js';
export { openQueueSessionStore, WorkerSessionStore } from './worker-store.js';
