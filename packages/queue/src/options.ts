// `@agent/queue/options`: the checks of a queue's settings (its URL, `--provider-cap`), which load
// no Redis client, so a process parses its flags without bullmq and ioredis.
export { parseProviderCap } from './provider-cap-flag.js';
export { checkQueueUrl } from './queue-url.js';
