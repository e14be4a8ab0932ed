import type { ServerResponse } from 'node:http';
import { abortableSleep } from '@agent/protocol/util';
import type { ScriptedFault } from '../steps.js';
import { type Frame, malformedFrame, type WireApi } from './sse.js';

/** What the server sends for one call, before faults and pacing are applied. */
export type WireAnswer =
  | { type: 'stream'; api: WireApi; status: number; headers: Record<string, string>; frames: Frame[] }
  | { type: 'body'; status: number; headers: Record<string, string>; body: string }
  /** Close the connection without a response (a network failure as the client sees it). */
  | { type: 'drop' };

export interface PlayOptions {
  fault?: ScriptedFault;
  tokenDelayMs?: number;
  /** Aborted when the client goes away or the server closes: stop writing. */
  signal: AbortSignal;
}

function write(res: ServerResponse, text: string): Promise<boolean> {
  return new Promise((resolve) => {
    if (res.destroyed || res.writableEnded) {
      resolve(false);
      return;
    }
    res.write(text, (error) => resolve(error === undefined || error === null));
  });
}

function cut(res: ServerResponse): void {
  res.socket?.destroy();
  res.destroy();
}

async function playFrames(res: ServerResponse, frames: Frame[], options: PlayOptions): Promise<void> {
  let deltas = 0;
  for (const frame of frames) {
    if (frame.delta === true) {
      if (deltas > 0 && (options.tokenDelayMs ?? 0) > 0)
        await abortableSleep(options.tokenDelayMs ?? 0, options.signal);
      deltas += 1;
    }
    if (!(await write(res, frame.text))) return;
  }
}

/** Plays a wire answer on the response, applying the step's fault and token pacing. */
export async function playWireAnswer(
  res: ServerResponse,
  wire: WireAnswer,
  options: PlayOptions,
): Promise<void> {
  try {
    await play(res, wire, options);
  } catch (error) {
    // The client left or the server is closing: nothing more to send.
    if (!options.signal.aborted) throw error;
  }
}

async function play(res: ServerResponse, wire: WireAnswer, options: PlayOptions): Promise<void> {
  if (wire.type === 'drop') {
    cut(res);
    return;
  }
  if (options.fault === 'hang') return;
  if (wire.type === 'body') {
    if (options.fault === 'malformed-sse') {
      const broken = wire.body.slice(0, Math.max(1, Math.floor(wire.body.length / 2)));
      res.writeHead(wire.status, { ...wire.headers, 'content-length': String(Buffer.byteLength(broken)) });
      res.end(broken);
      return;
    }
    res.writeHead(wire.status, { ...wire.headers, 'content-length': String(Buffer.byteLength(wire.body)) });
    if (options.fault === 'hang-after-headers') {
      res.flushHeaders();
      return;
    }
    if (options.fault === 'cut-stream') {
      await write(res, wire.body.slice(0, Math.floor(wire.body.length / 2)));
      cut(res);
      return;
    }
    res.end(wire.body);
    return;
  }
  res.writeHead(wire.status, wire.headers);
  res.flushHeaders();
  if (options.fault === 'hang-after-headers') return;
  if (options.fault === 'cut-stream') {
    await playFrames(res, wire.frames.slice(0, Math.max(1, Math.floor(wire.frames.length / 2))), options);
    cut(res);
    return;
  }
  if (options.fault === 'malformed-sse') {
    await playFrames(res, [...wire.frames.slice(0, 1), malformedFrame(wire.api)], options);
    res.end();
    return;
  }
  await playFrames(res, wire.frames, options);
  res.end();
}
