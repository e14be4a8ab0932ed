import type { RecordedRequest, ScriptedAnswer } from '@agent/testkit';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { finalReport, lastUserText } from './helpers.js';
import { until, useQueueFleet } from './queue-harness.js';

const { fleet, jobsLeft } = useQueueFleet();

/** The report's words, streamed one delta each: slowly the first time (20 s, cut by the kill), fast after. */
const REPORT = Array.from({ length: 40 }, (_, at) => `word${at}`).join(' ');

let calls = 0;
function slowReport(request: RecordedRequest): ScriptedAnswer {
  calls += 1;
  const whole = finalReport(`${REPORT} (${lastUserText(request.messages)})`);
  // The report tag whole (its nonce placeholder is filled in per delta), the report word by word.
  const at = whole.indexOf(REPORT);
  const words = REPORT.split(/(?<= )/);
  return {
    text: [whole.slice(0, at), ...words, whole.slice(at + REPORT.length)],
    tokenDelayMs: calls === 1 ? 500 : 10,
  };
}

/** An official OpenAI client streaming the report of `job-1`: its deltas, and the end of the stream. */
function streamReport(baseURL: string): { deltas: string[]; streaming: Promise<void> } {
  const client = new OpenAI({ baseURL, apiKey: 'none', maxRetries: 0 });
  const deltas: string[] = [];
  const streaming = (async () => {
    const stream = await client.chat.completions.create({
      model: 'echo',
      messages: [{ role: 'user', content: 'job-1' }],
      stream: true,
    });
    for await (const chunk of stream) deltas.push(chunk.choices[0]?.delta.content ?? '');
  })();
  return { deltas, streaming };
}

// Needs the turn journal (core + runtime + the Redis store's journal): a worker announces
// journaling sessions only when its store keeps journals.
describe('queue: a streaming client keeps its answer when its worker dies while the report streams', () => {
  it('OpenAI stream: the worker is SIGKILLed mid-report; the next worker answers; the client gets the report once, no error', async () => {
    const { face, workers, spawnWorker, name } = await fleet(1, {
      handler: slowReport,
      faceArgs: ['--openai', '0'],
      headends: 2,
    });
    const { deltas, streaming } = streamReport(face.urls.openai!);
    // The model is streaming the report (20 s the first time): once a second worker is up, kill
    // the first one, mid-report whatever the machine's load.
    await until(() => calls === 1);
    await spawnWorker();
    expect(calls).toBe(1);
    workers[0]!.child.kill('SIGKILL');
    await streaming;
    // The dead worker's half report never reached the client (held: not journaled); the
    // next worker asked the model again and the whole report arrived once.
    expect(deltas.join('')).toBe(`${REPORT} (job-1)`);
    expect(calls).toBe(2);
    expect(await jobsLeft(name)).toMatchObject({ waiting: 0, active: 0, failed: 0 });
  }, 120_000);

  it("OpenAI stream: the worker is frozen (SIGSTOP) past its lock mid-report, the job moves, then it wakes, learns its lock lapsed and stops its stale run; the client gets the new worker's report once, whole", async () => {
    // Both runs stream slowly (500 ms a word): the frozen worker is woken while the next one is
    // early in its report.
    let stallCalls = 0;
    const { face, workers, spawnWorker, name } = await fleet(1, {
      handler: (request) => {
        stallCalls += 1;
        return { ...slowReport(request), tokenDelayMs: 500 };
      },
      faceArgs: ['--openai', '0'],
      headends: 2,
    });
    const { deltas, streaming } = streamReport(face.urls.openai!);
    await until(() => stallCalls === 1);
    await spawnWorker();
    // Some words of the first run are on their way; freeze its worker past its 1 s lock.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    workers[0]!.child.kill('SIGSTOP');
    await until(() => stallCalls === 2);
    // The second worker owns the job and streams; the first wakes with the words the model sent
    // meanwhile in its socket, may write some to the job's stream (the face skips them), and
    // stops its run at its next lock renewal.
    workers[0]!.child.kill('SIGCONT');
    await until(() => /^job [\w-]+: its lock lapsed/m.test(workers[0]!.stderr()));
    await streaming;
    expect(deltas.join('')).toBe(`${REPORT} (job-1)`);
    expect(stallCalls).toBe(2);
    expect(await jobsLeft(name)).toMatchObject({ waiting: 0, active: 0, failed: 0 });
  }, 120_000);
});
