import { type RecordedRequest, type ScriptedAnswer, streamedFinalReport } from '@agent/testkit';
import { DefaultChatTransport, readUIMessageStream, type UIMessage } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRestHeadend, type ServedHeadend, serve } from '../src/index.js';
import { startTeam, type Team } from './helpers/team.js';

// The model's text outside the report (`assistant_text`): forwarded only when the REST headend
// is told to, and never as part of the report.
const NOTE = 'Let me add them first.';
const REPORT = 'The sum is 5.';

function answer(request: RecordedRequest): ScriptedAnswer {
  if (!request.messages.some((m) => m.role === 'tool')) {
    return { text: NOTE, toolCalls: [{ id: 'c1', name: 'calc__add', arguments: { a: 2, b: 3 } }] };
  }
  return streamedFinalReport(['The sum ', 'is 5.']);
}

let team: Team;
let plain: ServedHeadend;
let forwarding: ServedHeadend;

beforeAll(async () => {
  team = await startTeam(answer);
  plain = await serve(createRestHeadend({ catalog: team.catalog, tokens: ['k'] }));
  forwarding = await serve(createRestHeadend({ catalog: team.catalog, tokens: ['k'], assistantText: true }));
});

afterAll(async () => {
  await Promise.all([plain.close(), forwarding.close()]);
  await team.close();
});

/** The SSE events of one run: names and parsed data. */
interface SseEvent {
  name: string;
  data: { event: { text: string }; finalReport: { content: string } };
}

async function sseRun(server: ServedHeadend): Promise<SseEvent[]> {
  const response = await fetch(`${server.url}/v1/agents/lead/run`, {
    method: 'POST',
    headers: { authorization: 'Bearer k', 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ prompt: 'add 2 and 3' }),
  });
  const body = await response.text();
  return body
    .split('\n\n')
    .filter((frame) => frame.startsWith('event: '))
    .map((frame) => {
      const [head, ...data] = frame.split('\n');
      return {
        name: head!.slice('event: '.length),
        data: JSON.parse(data.map((l) => l.slice(6)).join('\n')),
      };
    });
}

async function chatParts(server: ServedHeadend) {
  const transport = new DefaultChatTransport<UIMessage>({
    api: `${server.url}/api/chat`,
    headers: { authorization: 'Bearer k' },
  });
  const stream = await transport.sendMessages({
    trigger: 'submit-message',
    chatId: 'chat-1',
    messageId: undefined,
    messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'add 2 and 3' }] }],
    abortSignal: undefined,
  });
  let message: UIMessage | undefined;
  for await (const snapshot of readUIMessageStream({ stream })) message = snapshot;
  return (message?.parts ?? []).filter((part) => part.type === 'text');
}

describe('REST SSE', () => {
  it('by default sends no assistant_text events: the stream is what it was', async () => {
    const events = await sseRun(plain);
    expect(events.map((e) => e.name)).not.toContain('assistant_text');
    expect(events.at(-1)?.data.finalReport.content).toBe(REPORT);
  });

  it('with assistantText sends the model text beside its tool call, apart from the report', async () => {
    const events = await sseRun(forwarding);
    const notes = events.filter((e) => e.name === 'assistant_text');
    expect(notes.map((e) => e.data.event.text).join('')).toBe(NOTE);
    const output = events.filter((e) => e.name === 'output').map((e) => e.data.event.text);
    expect(output.join('')).toBe(REPORT);
    expect(events.at(-1)?.data.finalReport.content).toBe(REPORT);
  });
});

describe('/api/chat', () => {
  it('by default has the report as its only text', async () => {
    const parts = await chatParts(plain);
    expect(parts.map((part) => part.text)).toEqual([REPORT]);
  });

  it('with assistantText has the note as a text part of its own, marked, before the report', async () => {
    const parts = await chatParts(forwarding);
    expect(parts.map((part) => part.text)).toEqual([NOTE, REPORT]);
    expect(parts[0]?.providerMetadata).toEqual({ agent: { assistantText: true } });
    expect(parts[1]?.providerMetadata).toBeUndefined();
  });
});
