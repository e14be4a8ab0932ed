import { resolve } from 'node:path';
import { canSealSnapshots, type SealReport } from '@agent/cache';
import { AgentError } from '@agent/protocol';
import { errorMessage } from '@agent/protocol/util';
import { redactSecrets } from '@agent/providers';
import type { ResolveOptions } from '../api.js';
import { resolveConfig } from '../config/layers.js';
import { RuntimeError } from '../errors.js';
import { RunnerSessions } from './runner-sessions.js';

/** What `sealStoredSnapshots` did, and to which store (a Redis URL's password redacted). */
export interface StoreSealReport extends SealReport {
  store: string;
}

/**
 * `agent sessions seal`: seals, once, the snapshots of the configured session store written
 * before integrity tags (untagged, version 1), found as `agent resume` finds the store. The
 * operator runs it after an upgrade, trusting what the store holds. A config or store that
 * cannot be used throws a `RuntimeError` (kind `configuration`) saying why.
 */
export async function sealStoredSnapshots(options: ResolveOptions = {}): Promise<StoreSealReport> {
  const config = resolveConfig({ ...options, cwd: resolve(options.cwd ?? process.cwd()) });
  const sessions = new RunnerSessions(config, '');
  try {
    const store = await sessions.store();
    if (!canSealSnapshots(store)) {
      throw new RuntimeError({
        kind: 'configuration',
        message: `the ${store.name} session store ${store.location} cannot seal snapshots`,
      });
    }
    return { store: store.location, ...(await store.sealUnsealedSnapshots()) };
  } catch (error) {
    if (error instanceof RuntimeError || !AgentError.is(error)) throw error;
    throw new RuntimeError({
      kind: 'configuration',
      message: redactSecrets(`cannot seal the session store's snapshots: ${errorMessage(error)}`),
      cause: error,
    });
  } finally {
    await sessions.close();
  }
}
