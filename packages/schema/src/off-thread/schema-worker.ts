import { parentPort } from 'node:worker_threads';
import { errorMessage } from '@agent/protocol/util';
import { type GeneratedCode, generatedCode } from './generated-code.js';
import { validatorCodeCache } from './load-validator.js';
import type { SchemaJob } from './schema-worker-pool.js';

// The worker thread's entry (built to dist/schema-worker.js): compiles one schema per message,
// in the order they come, and says when it is ready so the time limit counts compiling only.
const port = parentPort;
if (port === null) throw new Error('schema-worker must run in a worker thread');
port.on('message', (job: SchemaJob) => {
  let result: GeneratedCode;
  try {
    result = generatedCode(job.text, job.limits);
    // V8's code cache, so the event loop does not parse and compile the code again.
    if (result.ok) result = { ...result, codeCache: validatorCodeCache(result.code) };
  } catch (error) {
    result = { ok: false, problems: [errorMessage(error)] };
  }
  const transfer =
    result.ok && result.codeCache !== undefined ? [result.codeCache.buffer as ArrayBuffer] : [];
  port.postMessage({ id: job.id, result }, transfer);
});
port.postMessage({ ready: true });
