// The effects soak's streaming clients, one per face protocol: each sends its session's prompt,
// reads the whole stream and says what text it received, whether the stream ended as an answer,
// and what it was told on the way (retractions, errors, moves).

/** The four streaming protocols of the soak. */
export type StreamClient = 'openai' | 'anthropic' | 'rest-sse' | 'ui-stream';
export const STREAM_CLIENTS: readonly StreamClient[] = ['openai', 'anthropic', 'rest-sse', 'ui-stream'];

export interface StreamOutcome {
  session: string;
  client: StreamClient;
  /** The stream ended as an answer (not an error, not cut). */
  answered: boolean;
  /** The report text received, every delta concatenated in order (nothing taken back). */
  text: string;
  /** Retractions (REST `output_retracted`) and in-stream errors received. */
  retractions: number;
  errors: string[];
  /** Told the session moved to another worker (REST status). */
  moved: boolean;
  startedAt: number;
  endedAt: number;
  problem?: string;
}

export interface FaceUrls {
  /** `.../v1/agents` */
  rest: string;
  /** `.../v1` */
  openai: string;
  /** the Anthropic face's root */
  anthropic: string;
}

interface SseFrame {
  event?: string;
  data: string;
}

/** The frames of a whole SSE body (`event:` and `data:` lines; a frame ends at a blank line). */
function sseFrames(body: string): SseFrame[] {
  const frames: SseFrame[] = [];
  for (const block of body.split(/\r?\n\r?\n/)) {
    const lines = block.split(/\r?\n/);
    const event = lines
      .find((l) => l.startsWith('event:'))
      ?.slice(6)
      .trim();
    const data = lines
      .filter((l) => l.startsWith('data:'))
      .map((l) => l.slice(5).replace(/^ /, ''))
      .join('\n');
    if (data !== '') frames.push(event === undefined ? { data } : { event, data });
  }
  return frames;
}

/** What a protocol's frames say: text received, answered, retractions, errors, moved. */
type Reading = Pick<StreamOutcome, 'answered' | 'text' | 'retractions' | 'errors' | 'moved'>;

function emptyReading(): Reading {
  return { answered: false, text: '', retractions: 0, errors: [], moved: false };
}

// biome-ignore lint/suspicious/noExplicitAny: parsed wire JSON, read defensively field by field
type Wire = any;

function readOpenAi(frames: SseFrame[]): Reading {
  const reading = emptyReading();
  for (const { data } of frames) {
    if (data === '[DONE]') continue;
    const chunk: Wire = JSON.parse(data);
    if (chunk.error !== undefined) reading.errors.push(String(chunk.error.message));
    const choice = chunk.choices?.[0];
    if (typeof choice?.delta?.content === 'string') reading.text += choice.delta.content;
    if (choice?.finish_reason === 'stop') reading.answered = true;
  }
  reading.answered &&= reading.errors.length === 0;
  return reading;
}

function readAnthropic(frames: SseFrame[]): Reading {
  const reading = emptyReading();
  for (const { data } of frames) {
    const event: Wire = JSON.parse(data);
    if (event.type === 'error') reading.errors.push(String(event.error?.message));
    if (event.type === 'content_block_delta' && event.delta?.type === 'text_delta')
      reading.text += event.delta.text;
    if (event.type === 'message_stop') reading.answered = true;
  }
  reading.answered &&= reading.errors.length === 0;
  return reading;
}

function readRest(frames: SseFrame[], expected: string): Reading {
  const reading = emptyReading();
  for (const { event, data } of frames) {
    const body: Wire = JSON.parse(data);
    if (event === 'result') reading.answered = body.finalReport?.content === expected;
    if (body.meta?.isMaster !== true) continue;
    if (event === 'output') reading.text += body.event.text;
    if (event === 'output_retracted') reading.retractions += 1;
    if (event === 'status' && String(body.event?.event?.message).includes('session moved'))
      reading.moved = true;
  }
  return reading;
}

function readUi(frames: SseFrame[]): Reading {
  const reading = emptyReading();
  for (const { data } of frames) {
    if (data === '[DONE]') continue;
    const chunk: Wire = JSON.parse(data);
    if (chunk.type === 'text-delta') reading.text += chunk.delta;
    if (chunk.type === 'error') reading.errors.push(String(chunk.errorText));
    if (chunk.type === 'finish') reading.answered = chunk.finishReason !== 'error';
  }
  reading.answered &&= reading.errors.length === 0;
  return reading;
}

function request(client: StreamClient, faces: FaceUrls, prompt: string): { url: string; body: unknown } {
  const messages = [{ role: 'user', content: prompt }];
  switch (client) {
    case 'openai':
      return { url: `${faces.openai}/chat/completions`, body: { model: 'soak', stream: true, messages } };
    case 'anthropic':
      return {
        url: `${faces.anthropic}/v1/messages`,
        body: { model: 'soak', max_tokens: 1024, stream: true, messages },
      };
    case 'rest-sse':
      return { url: `${faces.rest}/soak/run`, body: { prompt } };
    case 'ui-stream':
      return {
        url: `${faces.rest.replace(/\/v1\/agents$/, '')}/api/chat`,
        body: {
          id: 'chat',
          agent: 'soak',
          trigger: 'submit-message',
          messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: prompt }] }],
        },
      };
  }
}

function read(client: StreamClient, frames: SseFrame[], expected: string): Reading {
  if (client === 'openai') return readOpenAi(frames);
  if (client === 'anthropic') return readAnthropic(frames);
  if (client === 'rest-sse') return readRest(frames, expected);
  return readUi(frames);
}

/** One streaming client session through `client`'s face; `expected` is the report it should get. */
export async function runStreamSession(
  client: StreamClient,
  faces: FaceUrls,
  session: string,
  expected: string,
  timeoutMs: number,
): Promise<StreamOutcome> {
  const startedAt = Date.now();
  const { url, body } = request(client, faces, `${session}: work through your turns`);
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    const reading = read(client, sseFrames(text), expected);
    const answered = response.status === 200 && reading.answered;
    return {
      session,
      client,
      startedAt,
      endedAt: Date.now(),
      ...reading,
      answered,
      ...(answered ? {} : { problem: `HTTP ${response.status}: ${text.slice(-300)}` }),
    };
  } catch (error) {
    return { session, client, startedAt, endedAt: Date.now(), ...emptyReading(), problem: String(error) };
  }
}
