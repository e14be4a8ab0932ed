export { ATTR, OPERATION } from './attributes.js';
export {
  SessionTrace,
  type SessionTraceOptions,
  startSessionTrace,
  TRACER_NAME,
} from './session-trace.js';
export { type TraceableConfig, traceSession, traceToolCalls } from './traced-session.js';
export { contextFromTraceparent, parseTraceparent, traceparentOf } from './traceparent.js';
