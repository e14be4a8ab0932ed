// The load client, in a process of its own so its CPU is not the server's: fires a burst of
// concurrent streaming chat completions with node:http (one fresh connection each) and reads
// every stream to its end, checking the text it carries.
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { answerParent } from '../harness/child-process.js';
import type { BurstOutcome, ClientCommand, ClientReply } from './ipc.js';

/** A request not done within this is lost (the scripted stream takes well under a second). */
const REQUEST_TIMEOUT_MS = 60_000;
const BODY = JSON.stringify({ model: 'bench', stream: true, messages: [{ role: 'user', content: 'go' }] });
const agent = new Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });

type Answer = { ok: true; ms: number } | { ok: false; lost: boolean; problem: string };

/** The text of an OpenAI chat-completion SSE body, or a problem. */
function streamedText(body: string): string | { problem: string } {
  let text = '';
  for (const line of body.split('\n')) {
    if (!line.startsWith('data: {')) continue;
    const chunk = JSON.parse(line.slice(6)) as { choices?: { delta?: { content?: string } }[] };
    text += chunk.choices?.[0]?.delta?.content ?? '';
  }
  if (!body.includes('data: [DONE]')) return { problem: 'stream ended without [DONE]' };
  return text;
}

function oneRequest(url: string, expected: string): Promise<Answer> {
  const started = performance.now();
  return new Promise<Answer>((resolve) => {
    const sent = request(
      `${url}/v1/chat/completions`,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(BODY) },
        timeout: REQUEST_TIMEOUT_MS,
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (part: string) => {
          body += part;
        });
        response.on('error', (error) => resolve({ ok: false, lost: true, problem: error.message }));
        response.on('end', () => {
          const ms = performance.now() - started;
          if (response.statusCode !== 200) {
            resolve({
              ok: false,
              lost: false,
              problem: `HTTP ${response.statusCode}: ${body.slice(0, 200)}`,
            });
            return;
          }
          const text = streamedText(body);
          if (typeof text !== 'string') resolve({ ok: false, lost: false, problem: text.problem });
          else if (text.trim() !== expected.trim())
            resolve({ ok: false, lost: false, problem: `wrong text: ${text.slice(0, 80)}` });
          else resolve({ ok: true, ms });
        });
      },
    );
    sent.on('timeout', () => sent.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)));
    sent.on('error', (error) => resolve({ ok: false, lost: true, problem: error.message }));
    sent.end(BODY);
  });
}

async function burst(url: string, concurrency: number, expected: string): Promise<BurstOutcome> {
  const answers = await Promise.all(Array.from({ length: concurrency }, () => oneRequest(url, expected)));
  const outcome: BurstOutcome = { wallMs: [], failed: 0, lost: 0 };
  for (const answer of answers) {
    if (answer.ok) {
      outcome.wallMs.push(answer.ms);
      continue;
    }
    if (answer.lost) outcome.lost++;
    else outcome.failed++;
    outcome.firstProblem ??= answer.problem;
  }
  return outcome;
}

answerParent<ClientCommand, ClientReply>(async (command) => {
  if (command.type !== 'burst') throw new Error(`load-client: unknown command ${command.type}`);
  return {
    id: command.id,
    type: 'burst',
    ...(await burst(command.url, command.concurrency, command.expected)),
  };
});
