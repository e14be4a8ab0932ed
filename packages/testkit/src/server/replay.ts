import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { AgentError } from '@agent/protocol';
import { type Frame, JSON_HEADERS, SSE_HEADERS, type WireApi } from './sse.js';
import type { WireAnswer } from './wire-answer.js';

/** A replay step named a file that cannot be played. */
export class ReplayError extends AgentError {
  override readonly name = 'ReplayError';

  constructor(message: string) {
    super('replay_unplayable', message);
  }
}

function eventName(line: string): string | undefined {
  try {
    const value = JSON.parse(line) as { type?: unknown };
    return typeof value.type === 'string' ? value.type : undefined;
  } catch {
    return undefined;
  }
}

/** `*.chunks.txt`: one JSON per line; Anthropic and Responses also get the `event:` line, Chat a final `[DONE]`. */
function chunkFrames(text: string, api: WireApi): Frame[] {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '');
  const frames: Frame[] = lines.map((line) => {
    const event = api === 'openai-chat' ? undefined : eventName(line);
    return { text: `${event === undefined ? '' : `event: ${event}\n`}data: ${line}\n\n`, delta: true };
  });
  if (api === 'openai-chat') frames.push({ text: 'data: [DONE]\n\n' });
  return frames;
}

/** `*.sse`: the raw text exactly, cut after each blank line so pacing and faults can apply. */
function rawFrames(text: string): Frame[] {
  return text
    .split(/(?<=\n\n)/)
    .filter((piece) => piece !== '')
    .map((piece) => ({ text: piece, delta: true }));
}

/**
 * Loads a recorded stream or body (path relative to `fixturesDir`) as the wire answer to a call
 * on `api`: `*.chunks.txt` and `*.sse` stream, `*.json` is sent as the body.
 */
export async function replayAnswer(
  file: string,
  api: WireApi,
  fixturesDir: string,
  requestId: string,
): Promise<WireAnswer> {
  const path = resolve(fixturesDir, file);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ReplayError(
      `replay fixture ${JSON.stringify(file)} cannot be read at ${path} (${(error as Error).message}); ` +
        'set fixturesDir or AGENT_FIXTURES_DIR',
    );
  }
  const idHeader = { [api === 'anthropic' ? 'request-id' : 'x-request-id']: requestId };
  if (file.endsWith('.json')) {
    return { type: 'body', status: 200, headers: { ...JSON_HEADERS, ...idHeader }, body: text };
  }
  const headers = { ...SSE_HEADERS, ...idHeader };
  if (file.endsWith('.chunks.txt'))
    return { type: 'stream', api, status: 200, headers, frames: chunkFrames(text, api) };
  if (file.endsWith('.sse')) return { type: 'stream', api, status: 200, headers, frames: rawFrames(text) };
  throw new ReplayError(
    `replay fixture ${JSON.stringify(file)} has an unknown format; allowed: *.chunks.txt, *.sse, *.json`,
  );
}
