import { describe, expect, it } from 'vitest';
import { writeQueue } from '../src/admit.js';
import { type SseMessage, type SseStream, sseFrame } from '../src/sse-stream.js';

function recording(): { stream: SseStream; frames: string[]; hold: () => () => void } {
  const frames: string[] = [];
  let held: Promise<void> | undefined;
  const take = (frame: string) => {
    frames.push(frame);
    const pending = held;
    held = undefined;
    return pending;
  };
  return {
    frames,
    stream: {
      writeSSE: (message: SseMessage) => take(sseFrame(message)),
      writeData: (line: string) => take(`data: ${line}\n\n`),
      onAbort: () => {},
    },
    hold: () => {
      let release = () => {};
      held = new Promise<void>((resolve) => {
        release = resolve;
      });
      return release;
    },
  };
}

describe('writeQueue', () => {
  it('writes data lines and events in call order, holding the ones after a write that waits', async () => {
    const { stream, frames, hold } = recording();
    const writes = writeQueue(stream);
    writes.push('{"a":1}');
    const release = hold();
    writes.push({ event: 'x', data: 'one\ntwo' });
    writes.push('{"b":2}');
    expect(frames).toEqual(['data: {"a":1}\n\n', 'event: x\ndata: one\ndata: two\n\n']);
    release();
    await writes.flush();
    expect(frames).toEqual(['data: {"a":1}\n\n', 'event: x\ndata: one\ndata: two\n\n', 'data: {"b":2}\n\n']);
  });
});
