// The queue's Redis URL holds its password: on the command line it is in /proc/<pid>/cmdline for
// every local user to read. The faces and the worker take it from AGENT_SERVER_QUEUE_URL too,
// the faces from server.json's "queueUrl"; a bad one is refused without quoting the password.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseServerArgs } from '../src/cli-options.js';
import { parseWorkerArgs } from '../src/worker-options.js';

const dir = mkdtempSync(join(tmpdir(), 'queue-url-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const base = ['--agent', 'a.ai', '--api', '8081', '--allow-no-auth'];
const secretUrl = 'redis://:s3cret-pw@cache.internal:6380/2';

function failure(parse: () => unknown): string {
  try {
    parse();
  } catch (error) {
    return (error as Error).message;
  }
  return 'no error';
}

function serverJson(content: Record<string, unknown>): string {
  const path = join(dir, `server-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(path, JSON.stringify({ agents: ['a.ai'], api: 8081, allowNoAuth: true, ...content }), {
    mode: 0o600,
  });
  return path;
}

describe('the queue URL without the command line', () => {
  it('the faces take it from AGENT_SERVER_QUEUE_URL, and --queue beats it', () => {
    expect(parseServerArgs(base, { AGENT_SERVER_QUEUE_URL: secretUrl }).runQueue).toEqual({ url: secretUrl });
    expect(
      parseServerArgs([...base, '--queue', 'redis://other:1'], { AGENT_SERVER_QUEUE_URL: secretUrl })
        .runQueue,
    ).toEqual({ url: 'redis://other:1' });
  });

  it('the faces take it from server.json "queueUrl"; the environment beats the file', () => {
    const config = serverJson({ queueUrl: secretUrl });
    expect(parseServerArgs(['--config', config], {}).runQueue).toEqual({ url: secretUrl });
    expect(
      parseServerArgs(['--config', config], { AGENT_SERVER_QUEUE_URL: 'redis://env:2' }).runQueue,
    ).toEqual({ url: 'redis://env:2' });
  });

  it('the worker takes it from AGENT_SERVER_QUEUE_URL when --queue is not given', () => {
    expect(parseWorkerArgs(['--agent', 'a.ai'], { AGENT_SERVER_QUEUE_URL: secretUrl }).url).toBe(secretUrl);
    expect(failure(() => parseWorkerArgs(['--agent', 'a.ai'], {}))).toBe(
      'no queue: give --queue redis://... or set AGENT_SERVER_QUEUE_URL',
    );
  });

  it('a Redis Cluster URL comes from either source too', () => {
    const cluster = 'redis+cluster://:s3cret-pw@10.0.0.1:7000?node=10.0.0.2:7000';
    expect(parseServerArgs(base, { AGENT_SERVER_QUEUE_URL: cluster }).runQueue).toEqual({ url: cluster });
    expect(parseServerArgs(['--config', serverJson({ queueUrl: cluster })], {}).runQueue).toEqual({
      url: cluster,
    });
    expect(parseWorkerArgs(['--agent', 'a.ai'], { AGENT_SERVER_QUEUE_URL: cluster }).url).toBe(cluster);
  });

  it('a bad URL from either source is refused naming the source, never quoting the password', () => {
    const fromEnv = failure(() => parseServerArgs(base, { AGENT_SERVER_QUEUE_URL: 'redis:/:s3cret-pw@' }));
    expect(fromEnv).toMatch(/^AGENT_SERVER_QUEUE_URL: expected redis:\/\/host\[:port\]/);
    const fromWorker = failure(() =>
      parseWorkerArgs(['--agent', 'a.ai'], { AGENT_SERVER_QUEUE_URL: 'http://:s3cret-pw@h' }),
    );
    expect(fromWorker).toMatch(/^AGENT_SERVER_QUEUE_URL: expected redis:\/\/host\[:port\]/);
    const fromFile = failure(() =>
      parseServerArgs(['--config', serverJson({ queueUrl: 'rediss:/:s3cret-pw@' })], {}),
    );
    expect(fromFile).toMatch(/"queueUrl": expected redis:\/\/host\[:port\]/);
    for (const message of [fromEnv, fromWorker, fromFile]) expect(message).not.toContain('s3cret-pw');
  });
});
