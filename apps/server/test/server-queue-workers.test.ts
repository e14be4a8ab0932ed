import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RecordedRequest, ScriptedAnswer } from '@agent/testkit';
import { describe, expect, it } from 'vitest';
import { finalReport, lastUserText } from './helpers.js';
import { until, useQueueFleet } from './queue-harness.js';

const { fleet, jobsLeft, makeDir, redis } = useQueueFleet();

interface RunAnswer {
  success?: boolean;
  error?: string;
  exitCode?: string;
  finalReport?: { content?: string };
}

async function run(baseUrl: string, prompt: string): Promise<RunAnswer> {
  const response = await fetch(`${baseUrl}/echo/run`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ prompt }),
  });
  const answer = (await response.json()) as RunAnswer;
  // A run that completed answers 200; one that failed answers 500 with the same run body.
  expect(response.status).toBe(answer.success === false ? 500 : 200);
  return answer;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A model that counts the requests it holds at once. The first one waits until a second one is
 * in flight (so two sessions at once are seen for certain); each then answers after `holdMs`.
 */
function concurrencyModel(holdMs: number) {
  let inFlight = 0;
  let most = 0;
  let open: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const handler = async (request: RecordedRequest): Promise<ScriptedAnswer> => {
    inFlight += 1;
    most = Math.max(most, inFlight);
    if (inFlight >= 2) open();
    try {
      await gate;
      await sleep(holdMs);
      return { text: finalReport(`Echo: ${lastUserText(request.messages)}`) };
    } finally {
      inFlight -= 1;
    }
  };
  return { handler, most: () => most };
}

describe('queue workers: concurrency, poison jobs, moves, the shared cache', () => {
  it('a worker with --concurrency 2 never runs more than 2 sessions at once', async () => {
    const model = concurrencyModel(300);
    const { baseUrl, workers } = await fleet(1, {
      handler: model.handler,
      workerArgs: ['--concurrency', '2'],
    });
    expect(workers[0]!.stderr()).toContain('(2 at once)');
    const answers = await Promise.all(Array.from({ length: 6 }, (_, at) => run(baseUrl, `job-${at}`)));
    expect(answers.map((answer) => answer.finalReport?.content)).toEqual(
      Array.from({ length: 6 }, (_, at) => `Echo: job-${at}`),
    );
    // Six sessions were ready at once; the model never saw more than two of them.
    expect(model.most()).toBe(2);
  }, 120_000);

  it('a poison job (its agent file does not load on the worker) fails once with the load error; the worker stays up', async () => {
    const { baseUrl, name, dir, spawnWorker } = await fleet(0);
    // The worker's copy of echo.ai is broken (a misspelt key); the face's is fine.
    const broken = await makeDir(() => ({ text: 'unused' }));
    writeFileSync(broken.files[0]!, '---\ndescription: Broken.\nmodelz: [local/m]\n---\nYou are echo.\n');
    const worker = await spawnWorker([], { cwd: broken.dir, agent: broken.files[0]! });
    expect(worker.stderr()).toMatch(/did not load; jobs for it fail[\s\S]*echo\.ai:3: unknown key `modelz`/);
    expect(worker.stderr()).toContain('taking jobs (4 at once) for no agent');
    for (const prompt of ['job-1', 'job-2']) {
      const answer = await run(baseUrl, prompt);
      expect(answer.success).toBe(false);
      expect(answer.exitCode).toBe('EXIT-CONFIGURATION');
      expect(answer.error).toContain('this worker cannot run agent "echo": agent files did not load here:');
      expect(answer.error).toContain(broken.files[0]!);
      expect(answer.error).toContain('modelz');
    }
    // Each failed once, no retry; no model call; the worker still takes jobs.
    expect(await jobsLeft(name)).toMatchObject({ waiting: 0, active: 0, delayed: 0, failed: 2 });
    expect(dir.model.requests).toHaveLength(0);
    expect(worker.child.exitCode).toBe(null);
  }, 120_000);

  it('--max-moves 1: a session whose workers keep dying fails with a clear error, not retried again', async () => {
    const { model, workers, baseUrl, name, spawnWorker } = await fleet(1, {
      holdEveryRunOfTurn: 2,
      workerArgs: ['--max-moves', '1'],
    });
    const client = run(baseUrl, 'job-1: do the work');
    await until(() => model.turnsRun.get('job-1#2') === 1);
    const second = await spawnWorker();
    workers[0]!.child.kill('SIGKILL');
    // The first move: the second worker resumes it, and hangs in turn 2 too.
    await until(() => model.turnsRun.get('job-1#2') === 2);
    await spawnWorker();
    second.child.kill('SIGKILL');
    const answer = await client;
    expect(answer.success).toBe(false);
    expect(answer.error).toMatch(/moved to another worker more often than the workers' --max-moves allows/);
    expect(await jobsLeft(name)).toMatchObject({ waiting: 0, active: 0, delayed: 0, failed: 1 });
    expect(model.turnsRun.get('job-1#2')).toBe(2);
  }, 120_000);

  it('workers share the response cache on the queue Redis: a second worker answers a repeated run with no model call', async () => {
    const echo = (request: RecordedRequest): ScriptedAnswer => ({
      text: finalReport(`Echo: ${lastUserText(request.messages)}`),
    });
    const { baseUrl, dir, workers, spawnWorker } = await fleet(1, {
      handler: echo,
      prepare: (agents) => {
        writeFileSync(
          agents.files[0]!,
          '---\ndescription: The echo agent.\nmodels: [local/m]\ncache: 1h\n---\nYou are echo.\n',
        );
        writeFileSync(
          join(agents.dir, 'agent.json'),
          JSON.stringify({
            providers: { local: { type: 'openai-compatible', baseURL: `${agents.model.url}/v1` } },
            cache: { backend: 'redis', url: redis().url },
          }),
        );
      },
    });
    const prompt = `cached question ${Date.now()}`;
    const first = await run(baseUrl, prompt);
    expect(first.finalReport?.content, JSON.stringify(first)).toBe(`Echo: ${prompt}`);
    expect(dir.model.requests).toHaveLength(1);
    // The first worker leaves; another one answers the same run from the shared cache.
    workers[0]!.child.kill('SIGTERM');
    expect(await workers[0]!.exited).toBe(0);
    await spawnWorker();
    expect((await run(baseUrl, prompt)).finalReport?.content).toBe(`Echo: ${prompt}`);
    expect(dir.model.requests).toHaveLength(1);
    // A different question still reaches the model.
    expect((await run(baseUrl, `${prompt}, again`)).finalReport?.content).toBe(`Echo: ${prompt}, again`);
    expect(dir.model.requests).toHaveLength(2);
  }, 120_000);

  it("--provider-cap counts a sub-agent's provider: sessions whose helper calls the capped provider never overlap", async () => {
    let inFlight = 0;
    let most = 0;
    // The top agent (provider `top`, uncapped) asks its helper (provider `local`, capped to 1).
    const handler = async (request: RecordedRequest): Promise<ScriptedAnswer> => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await sleep(300);
      inFlight -= 1;
      const system = String(request.messages.find((message) => message.role === 'system')?.content ?? '');
      if (system.includes('You are helper.')) return { text: finalReport('hi') };
      if (!request.messages.some((message) => message.role === 'assistant')) {
        return { toolCalls: [{ id: 'call_h1', name: 'agent__helper', arguments: { prompt: 'say hi' } }] };
      }
      return { text: finalReport(`Echo: ${lastUserText(request.messages)}`) };
    };
    const { baseUrl, workers } = await fleet(1, {
      handler,
      workerArgs: ['--concurrency', '3', '--provider-cap', 'local=1'],
      prepare: (agents) => {
        const provider = { type: 'openai-compatible', baseURL: `${agents.model.url}/v1` };
        writeFileSync(
          join(agents.dir, 'agent.json'),
          JSON.stringify({ providers: { local: provider, top: provider } }),
        );
        writeFileSync(
          agents.files[0]!,
          '---\ndescription: The echo agent.\nmodels: [top/m]\nagents: [helper.ai]\n---\nYou are echo.\n',
        );
        writeFileSync(
          join(agents.dir, 'helper.ai'),
          '---\ndescription: Says hi.\nmodels: [local/m]\n---\nYou are helper.\n',
        );
      },
    });
    expect(workers[0]!.stderr()).toContain('a session of echo takes a slot of local');
    const answers = await Promise.all(Array.from({ length: 3 }, (_, at) => run(baseUrl, `job-${at}`)));
    expect(answers.map((answer) => answer.finalReport?.content)).toEqual([
      'Echo: job-0',
      'Echo: job-1',
      'Echo: job-2',
    ]);
    // Three slots on the worker, three sessions ready: the helper's provider cap ran them one at a time.
    expect(most).toBe(1);
  }, 120_000);
});
