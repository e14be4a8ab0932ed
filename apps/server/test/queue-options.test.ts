import { ConfigError } from '@agent/protocol';
import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { parseServerArgs } from '../src/cli-options.js';
import { parseWorkerArgs } from '../src/worker-options.js';

const base = ['--agent', 'a.ai', '--api', '8081', '--allow-no-auth'];

describe('agent-server --queue', () => {
  it('takes a number (requests waiting per headend) or a redis:// URL (the shared run queue)', () => {
    expect(parseServerArgs([...base, '--queue', '12'], {})).toMatchObject({ queueSize: 12 });
    expect(parseServerArgs([...base, '--queue', '12'], {}).runQueue).toBeUndefined();
    const queued = parseServerArgs(
      [...base, '--queue', 'redis://:pw@cache.internal:6380/2', '--queue-max', '50', '--queue-name', 'blue'],
      {},
    );
    expect(queued.runQueue).toEqual({
      url: 'redis://:pw@cache.internal:6380/2',
      maxWaiting: 50,
      name: 'blue',
    });
    expect(queued.queueSize).toBeUndefined();
  });

  it('takes a Redis Cluster URL (redis+cluster://, rediss+cluster://) as the shared run queue', () => {
    const cluster = 'redis+cluster://:pw@10.0.0.1:7000?node=10.0.0.2:7000&node=10.0.0.3:7000';
    expect(parseServerArgs([...base, '--queue', cluster], {}).runQueue).toEqual({ url: cluster });
    expect(parseServerArgs([...base, '--queue', 'rediss+cluster://r:7000'], {}).runQueue).toEqual({
      url: 'rediss+cluster://r:7000',
    });
    // A cluster has no database but 0: a URL naming one is refused, its password unquoted.
    const refused = (() => {
      try {
        parseServerArgs([...base, '--queue', 'redis+cluster://:hunter2@r:7000/3'], {});
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(ConfigError);
    expect((refused as Error).message).toContain('--queue: expected redis://');
    expect((refused as Error).message).toContain('redis+cluster://host:port');
    expect((refused as Error).message).not.toContain('hunter2');
  });

  it('refuses a queue URL that is not redis:// or rediss://, without quoting its password', () => {
    const refused = (() => {
      try {
        parseServerArgs([...base, '--queue', 'rediss:/:hunter2@'], {});
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(ConfigError);
    expect((refused as Error).message).toMatch(/--queue: expected redis:\/\/host\[:port\]/);
    expect((refused as Error).message).not.toContain('hunter2');
    expect(() => parseServerArgs([...base, '--queue', 'redis://h:1', '--queue-max', '-1'], {})).toThrow(
      /--queue-max: expected a non-negative number/,
    );
  });
});

describe('agent-server worker', () => {
  it('parses its flags with their defaults', () => {
    expect(parseWorkerArgs(['--queue', 'redis://127.0.0.1:6379', '--agent', 'a.ai'])).toEqual({
      url: 'redis://127.0.0.1:6379',
      agents: ['a.ai'],
      concurrency: 4,
      providerCaps: {},
      lockSeconds: 30,
      maxMoves: 5,
      drainSeconds: 10,
    });
    const worker = parseWorkerArgs([
      '--queue',
      'redis://r:6379',
      '--agent',
      'a.ai',
      '--agent',
      'b.ai',
      '--concurrency',
      '8',
      '--provider-cap',
      'openai=8',
      '--provider-cap',
      'anthropic=2',
      '--lock-seconds',
      '5',
      '--drain-seconds',
      '0',
      '--queue-name',
      'blue',
    ]);
    expect(worker).toMatchObject({
      agents: ['a.ai', 'b.ai'],
      concurrency: 8,
      providerCaps: { openai: 8, anthropic: 2 },
      lockSeconds: 5,
      drainSeconds: 0,
      queueName: 'blue',
    });
  });

  it('says what is wrong with a flag', () => {
    const quietly = (argv: string[]) => {
      const write = process.stderr.write;
      let said = '';
      process.stderr.write = ((text: string) => {
        said += text;
        return true;
      }) as typeof process.stderr.write;
      try {
        parseWorkerArgs(argv);
        return 'parsed';
      } catch (error) {
        return error instanceof CommanderError ? said : (error as Error).message;
      } finally {
        process.stderr.write = write;
      }
    };
    expect(quietly(['--agent', 'a.ai'])).toMatch(
      /no queue: give --queue redis:\/\/... or set AGENT_SERVER_QUEUE_URL/,
    );
    expect(quietly(['--queue', 'redis://r:1'])).toMatch(/no agents: give --agent/);
    expect(quietly(['--queue', 'redis://r:1', '--agent', 'a', '--concurrency', '0'])).toMatch(
      /--concurrency: expected a whole number >= 1, not "0"/,
    );
    expect(quietly(['--queue', 'redis://r:1', '--agent', 'a', '--provider-cap', 'openai'])).toMatch(
      /expected provider=N \(e\.g\. openai=8\), not "openai"/,
    );
    expect(quietly(['--queue', 'http://r:1', '--agent', 'a'])).toMatch(
      /--queue: expected redis:\/\/host\[:port\]\[\/db\] or rediss:\/\/.*redis\+cluster:\/\//,
    );
    expect(parseWorkerArgs(['--queue', 'redis+cluster://r:7000', '--agent', 'a.ai']).url).toBe(
      'redis+cluster://r:7000',
    );
  });
});
