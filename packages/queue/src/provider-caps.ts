import { ConfigError } from '@agent/protocol';
import { isPositiveInteger } from '@agent/protocol/util';
import type { Redis } from 'ioredis';
import { Semaphore } from 'redis-semaphore';
import type { QueueRedis } from './connection.js';
import type { QueueKeys } from './job.js';

/** A held slot of a provider's fleet-wide cap. */
export interface ProviderLease {
  release(): Promise<void>;
}

const NO_LEASE: ProviderLease = { release: async () => undefined };

/**
 * Fleet-wide caps on the sessions that run at once per model provider, one Redis semaphore each
 * (`redis-semaphore`): every worker of the queue takes a slot before it runs a session of an
 * agent that may call a model of that provider (its first model or a fallback). A slot is refreshed while held and expires
 * `lockMs` after its worker died, so a killed worker's slots come back by themselves.
 */
export class ProviderCaps {
  constructor(
    private readonly redis: QueueRedis,
    private readonly keys: QueueKeys,
    private readonly caps: Readonly<Record<string, number>>,
    private readonly lockMs: number,
  ) {
    for (const [provider, cap] of Object.entries(caps)) checkCap(provider, cap);
  }

  /**
   * Waits for a slot of each capped provider among `providers` (every provider a run may call,
   * its fallbacks' included); none needed for uncapped ones. Slots are taken in name order, so
   * two workers never wait on each other. Rejects (holding nothing) when `signal` aborts.
   */
  async acquire(providers: readonly string[], signal: AbortSignal): Promise<ProviderLease> {
    const capped = [...new Set(providers)].filter((provider) => this.caps[provider] !== undefined).sort();
    const held: ProviderLease[] = [];
    const releaseAll = async () => {
      await Promise.all(held.splice(0).map((lease) => lease.release()));
    };
    try {
      for (const provider of capped) held.push(await this.acquireOne(provider, this.caps[provider]!, signal));
    } catch (error) {
      await releaseAll();
      throw error;
    }
    return held.length === 0 ? NO_LEASE : { release: releaseAll };
  }

  private async acquireOne(provider: string, cap: number, signal: AbortSignal): Promise<ProviderLease> {
    // Its scripts touch one key each: a Cluster runs them as one server does.
    const semaphore = new Semaphore(this.redis as Redis, this.keys.providerCap(provider), cap, {
      lockTimeout: this.lockMs,
      refreshInterval: Math.max(100, Math.floor(this.lockMs / 3)),
      acquireTimeout: 24 * 3600 * 1000,
      retryInterval: 50,
      // A lost slot (Redis away too long) is not fatal: the session goes on, the cap is loose once.
      onLockLost: () => undefined,
    });
    await semaphore.acquire(signal);
    return { release: () => semaphore.release().catch(() => undefined) };
  }
}

function checkCap(provider: string, cap: unknown): void {
  if (!isPositiveInteger(cap)) {
    throw new ConfigError({
      field: 'providerCaps',
      value: cap,
      allowed: 'a positive whole number of sessions',
      message: `provider cap for "${provider}": expected a positive whole number, not ${String(cap)}`,
    });
  }
}
