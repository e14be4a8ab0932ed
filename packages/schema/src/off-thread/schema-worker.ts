import { errorMessage } from '@agent/protocol/util';
import type { SchemaLimits } from '../limits.js';
import { type GeneratedCode, generatedCode } from './generated-code.js';
import { validatorCodeCache } from './load-validator.js';

/** One schema sent to the worker thread, as compact JSON, with the limits it is checked against. */
export interface SchemaJob {
  text: string;
  limits: Required<SchemaLimits>;
}

/**
 * The worker thread's task (built to dist/schema-worker.js, run by the `WorkerPool`): compiles
 * one schema and adds V8's code cache, so the event loop does not parse and compile the code again.
 */
export default function compileInWorker(job: SchemaJob): GeneratedCode {
  try {
    const result = generatedCode(job.text, job.limits);
    return result.ok ? { ...result, codeCache: validatorCodeCache(result.code) } : result;
  } catch (error) {
    return { ok: false, problems: [errorMessage(error)] };
  }
}
