import { Command } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { queueKeys } from '../src/job.js';

const slot = (key: string) => new Command('exists', [key]).getSlot();

describe('queue keys', () => {
  it('on one server keep the names of every release (jobs in flight survive an upgrade)', () => {
    const keys = queueKeys('agent-runs');
    expect([
      keys.bullPrefix,
      keys.events('s-1'),
      keys.result('s-1'),
      keys.notify('s-1'),
      keys.cancel,
    ]).toEqual([
      'bull',
      'agent-queue:agent-runs:events:s-1',
      'agent-queue:agent-runs:result:s-1',
      'agent-queue:agent-runs:notify:s-1',
      'agent-queue:agent-runs:cancel',
    ]);
    expect(keys.providerCap('openai')).toBe('agent-queue:agent-runs:provider-cap:openai');
  });

  it("on a cluster a job's stream and result share a slot, and BullMQ's keys the queue's, whatever braces the names hold", () => {
    for (const [name, jobId] of [
      ['agent-runs', 's-1'],
      ['a{b', '}x{'],
      ['{}', '{}'],
      ['q', 'resume-1234'],
    ] as const) {
      const keys = queueKeys(name, true);
      expect(slot(keys.events(jobId))).toBe(slot(keys.result(jobId)));
      expect(slot(`${keys.bullPrefix}:${name}:wait`)).toBe(slot(`${keys.bullPrefix}:${name}:${jobId}`));
    }
    // Jobs spread over the slots instead of crowding the queue's.
    const keys = queueKeys('agent-runs', true);
    const slots = new Set(Array.from({ length: 20 }, (_, at) => slot(keys.events(`s-${at}`))));
    expect(slots.size).toBeGreaterThan(10);
    expect(keys.bullPrefix).toBe('bull:{agent-runs}');
  });
});
