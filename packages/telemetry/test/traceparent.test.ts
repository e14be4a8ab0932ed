import { ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { describe, expect, test } from 'vitest';
import { contextFromTraceparent, parseTraceparent, traceparentOf } from '../src/index.js';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN = '00f067aa0ba902b7';

describe('W3C traceparent', () => {
  test('a valid header gives a remote span context, and formats back to itself', () => {
    const header = `00-${TRACE}-${SPAN}-01`;
    expect(parseTraceparent(header)).toEqual({ traceId: TRACE, spanId: SPAN, traceFlags: 1, isRemote: true });
    expect(traceparentOf(contextFromTraceparent(header))).toBe(header);
    expect(parseTraceparent(`00-${TRACE.toUpperCase()}-${SPAN}-00`)?.traceFlags).toBe(0);
  });

  test.each([
    ['empty', ''],
    ['not hex', `00-${'z'.repeat(32)}-${SPAN}-01`],
    ['all-zero trace id', `00-${'0'.repeat(32)}-${SPAN}-01`],
    ['all-zero span id', `00-${TRACE}-${'0'.repeat(16)}-01`],
    ['version ff', `ff-${TRACE}-${SPAN}-01`],
    ['version 00 with extra fields', `00-${TRACE}-${SPAN}-01-extra`],
    ['short span id', `00-${TRACE}-${SPAN.slice(1)}-01`],
  ])('a malformed header (%s) is ignored: a new trace starts', (_why, header) => {
    expect(parseTraceparent(header)).toBeUndefined();
    expect(contextFromTraceparent(header)).toBe(ROOT_CONTEXT);
  });

  test('a later version may carry more fields; the first four are read', () => {
    expect(parseTraceparent(`01-${TRACE}-${SPAN}-01-more`)?.spanId).toBe(SPAN);
  });

  test('a context without a span has no traceparent', () => {
    expect(traceparentOf(ROOT_CONTEXT)).toBeUndefined();
    expect(
      traceparentOf(
        trace.setSpanContext(
          ROOT_CONTEXT,
          trace
            .wrapSpanContext({
              traceId: '0'.repeat(32),
              spanId: SPAN,
              traceFlags: 1,
            })
            .spanContext(),
        ),
      ),
    ).toBeUndefined();
  });
});
