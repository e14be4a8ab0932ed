import { type RecordedRequest, type ScriptedAnswer, streamedFinalReport } from '@agent/testkit';
import { DefaultChatTransport, readUIMessageStream, type UIMessage, type UIMessageChunk } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRestHeadend, type ServedHeadend, serve } from '../src/index.js';
import { finalReport, lastUserText } from './helpers/agents.js';
import { isHelper, startTeam, type Team } from './helpers/team.js';

const REPORT_PIECES = ['The sum ', 'is 5, ', 'and the helper ', 'agrees.'];
const REPORT = REPORT_PIECES.join('');

function answer(request: RecordedRequest): ScriptedAnswer {
  if (isHelper(request))
    return { text: finalReport('helper agrees'), usage: { inputTokens: 3, outputTokens: 2 } };
  if (lastUserText(request.messages).startsWith('slow')) {
    return streamedFinalReport(Array<string>(200).fill('tick '), {
      unclosed: true,
      answer: { tokenDelayMs: 50 },
    });
  }
  const toolResults = request.messages.filter((m) => m.role === 'tool').length;
  const usage = { inputTokens: 10, outputTokens: 4 };
  if (toolResults === 0) {
    return {
      reasoning: { text: 'I should add first.' },
      toolCalls: [
        { id: 's1', name: 'agent__task_status', arguments: { status: 'in-progress', now: 'adding numbers' } },
        { id: 'c1', name: 'calc__add', arguments: { a: 2, b: 3 } },
      ],
      usage,
    };
  }
  if (!request.messages.some((m) => m.role === 'tool' && m.content.includes('helper agrees'))) {
    return {
      toolCalls: [{ id: 'h1', name: 'agent__helper', arguments: { prompt: 'Do you agree?' } }],
      usage,
    };
  }
  return streamedFinalReport(REPORT_PIECES, { answer: { usage } });
}

let team: Team;
let server: ServedHeadend;
let transport: DefaultChatTransport<UIMessage>;

beforeAll(async () => {
  team = await startTeam(answer);
  server = await serve(createRestHeadend({ catalog: team.catalog, tokens: ['k'] }));
  transport = new DefaultChatTransport({
    api: `${server.url}/api/chat`,
    headers: { authorization: 'Bearer k' },
  });
});

afterAll(async () => {
  await server.close();
  await team.close();
});

function userMessage(id: string, text: string): UIMessage {
  return { id, role: 'user', parts: [{ type: 'text', text }] };
}

/** Sends the chat through the AI SDK transport; the chunks as they came and the assembled message. */
async function chat(messages: UIMessage[], abortSignal?: AbortSignal) {
  const stream = await transport.sendMessages({
    trigger: 'submit-message',
    chatId: 'chat-1',
    messageId: undefined,
    messages,
    abortSignal,
  });
  const [forChunks, forMessage] = stream.tee();
  const chunks: UIMessageChunk[] = [];
  const collecting = (async () => {
    for await (const chunk of forChunks) chunks.push(chunk);
  })();
  let message: UIMessage | undefined;
  const errors: unknown[] = [];
  for await (const snapshot of readUIMessageStream({ stream: forMessage, onError: (e) => errors.push(e) })) {
    message = snapshot;
  }
  await collecting;
  return { chunks, message, errors };
}

describe('POST /api/chat read by the AI SDK client', () => {
  it('streams reasoning, tool parts for the tool and the sub-agent, status, then the report text', async () => {
    const { chunks, message } = await chat([userMessage('u1', 'add 2 and 3, then ask the helper')]);
    expect(message?.role).toBe('assistant');
    const parts = message?.parts ?? [];
    const kinds = parts.map((part) =>
      part.type === 'dynamic-tool' ? `tool:${part.toolName}:${part.state}` : part.type,
    );
    expect(kinds).toEqual([
      'step-start',
      'reasoning',
      'data-status',
      'tool:calc__add:output-available',
      'step-start',
      'tool:agent__helper:output-available',
      'step-start',
      'text',
    ]);
    const text = parts
      .filter((part) => part.type === 'text')
      .map((part) => part.text)
      .join('');
    expect(text).toBe(REPORT);
    // The report arrived as it streamed, in several deltas.
    expect(chunks.filter((chunk) => chunk.type === 'text-delta').length).toBeGreaterThan(1);
    const reasoning = parts.find((part) => part.type === 'reasoning');
    expect(reasoning?.type === 'reasoning' && reasoning.text).toContain('I should add first.');
    const status = parts.find((part) => part.type === 'data-status');
    expect(status?.type === 'data-status' && status.data).toMatchObject({ now: 'adding numbers' });
    const calc = parts.find((part) => part.type === 'dynamic-tool' && part.toolName === 'calc__add');
    expect(calc?.type === 'dynamic-tool' && calc.input).toEqual({ a: 2, b: 3 });
    // The part's output is what the tool returned (a useChat page shows it as the result).
    expect(calc?.type === 'dynamic-tool' && calc.output).toBe('5');
    const helper = parts.find((part) => part.type === 'dynamic-tool' && part.toolName === 'agent__helper');
    expect(helper?.type === 'dynamic-tool' && helper.input).toEqual({ prompt: 'Do you agree?' });
    expect(helper?.type === 'dynamic-tool' && helper.output).toMatchObject({ report: 'helper agrees' });
    const finish = chunks.at(-1);
    expect(finish?.type).toBe('finish');
    const usage = (finish as { messageMetadata?: { usage?: Record<string, number> } }).messageMetadata?.usage;
    // Three lead calls and one helper call, summed.
    expect(usage).toMatchObject({ inputTokens: 33, outputTokens: 14, llmCalls: 4 });
    expect(message?.metadata).toMatchObject({ usage: { inputTokens: 33 } });
  });

  it('takes the history from the UI messages', async () => {
    const { message } = await chat([
      userMessage('u1', 'the earlier question'),
      { id: 'a1', role: 'assistant', parts: [{ type: 'text', text: 'the earlier answer' }] },
      userMessage('u2', 'add 2 and 3'),
    ]);
    expect(message?.parts.filter((part) => part.type === 'text').map((part) => part.text)).toEqual([REPORT]);
    const first = team.model.requests.find(
      (request) => !isHelper(request) && lastUserText(request.messages) === 'add 2 and 3',
    );
    const seen = first?.messages.map((m) => m.content) ?? [];
    expect(seen).toContain('the earlier question');
    expect(seen).toContain('the earlier answer');
  });

  it('aborts the session when the request is aborted', async () => {
    const controller = new AbortController();
    const earlier = team.runs.length;
    const stream = await transport.sendMessages({
      trigger: 'submit-message',
      chatId: 'chat-2',
      messageId: undefined,
      messages: [userMessage('u1', 'slow answer please')],
      abortSignal: controller.signal,
    });
    const reader = stream.getReader();
    let sawText = false;
    while (!sawText) {
      const { value, done } = await reader.read();
      if (done) break;
      sawText = value.type === 'text-delta';
    }
    expect(sawText).toBe(true);
    controller.abort();
    await reader.read().catch(() => undefined);
    const run = team.runs[earlier];
    const result = await run?.result;
    expect(run?.signal?.aborted).toBe(true);
    expect(result?.success).toBe(false);
  });

  it('answers with the SSE headers and the UI message stream header set by the route', async () => {
    const response = await fetch(`${server.url}/api/chat`, {
      method: 'POST',
      headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [userMessage('m1', 'Headers?')] }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    expect(await response.text()).toMatch(/data: \[DONE\]\n\n$/);
  });

  it('refuses a body without UI messages with a 400 that says what is allowed', async () => {
    const response = await fetch(`${server.url}/api/chat`, {
      method: 'POST',
      headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [{ role: 'tool', parts: [] }] }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: {
        type: 'bad_request',
        message: 'messages[0].role must be user, assistant or system, not "tool"',
      },
    });
  });

  it.each([
    [[{ role: 'user', parts: 'hi' }], 'messages[0].parts must be an array of message parts'],
    [[{ role: 'user', parts: [{ type: 'text', text: 'a' }] }, 'b'], 'messages[1] must be an object'],
    [[{ role: 'user', parts: [7] }], 'messages[0].parts[0] must be an object with a "type"'],
    [[{ role: 'user', parts: [{ type: 'text', text: 1 }] }], 'messages[0].parts[0].text must be a string'],
  ])('a malformed message %j is a 400 naming the place: %s', async (messages, message) => {
    const response = await fetch(`${server.url}/api/chat`, {
      method: 'POST',
      headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
      body: JSON.stringify({ messages }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: { type: 'bad_request', message } });
  });
});
