import type { AgentEvent, AgentEventMeta, SessionSnapshot, TurnJournalEntry } from '@agent/protocol';
import { type ModelServer, type ScriptStep, startModelServer } from '@agent/testkit';
import { type AgentConfig, defineAgent, type RunOptions, tool } from '../../src/index.js';
import { openaiModelOn } from '../helpers/http-model.js';

// The sessions of the turn journal's tests: a "charge" tool whose calls the tests count, on a
// scripted model server over HTTP, with a store that keeps snapshots and journals as a real one.
export const NONCE = 'c4ec4ec4';

/** Servers started by `serve`; each test file closes them after each test. */
export const servers: ModelServer[] = [];

export async function serve(steps: ScriptStep[]): Promise<ModelServer> {
  const server = await startModelServer({ strict: true, steps });
  servers.push(server);
  return server;
}

/** One execution of the tool: its arguments and its idempotency key. */
export interface Charge {
  item: string;
  key: string;
}

/**
 * The tool's side effects, in order. `hang` names items whose call never finishes on its own
 * (it waits for the session's abort): the call that was in flight when the process died.
 */
export class Ledger {
  readonly charges: Charge[] = [];
  hang = new Set<string>();
  /** Called when a charge starts (a test may crash the session then). */
  onCharge: (charge: Charge) => void = () => {};
}

export function agentOn(server: ModelServer, ledger: Ledger): AgentConfig {
  return defineAgent({
    model: openaiModelOn(server),
    instructions: 'Charge every item the user names, then report.',
    tools: [
      tool({
        name: 'charge',
        description: 'Charges one item',
        parameters: { type: 'object', properties: { item: { type: 'string' } }, required: ['item'] },
        execute: async ({ item }, context) => {
          const charge = { item: String(item), key: context.idempotencyKey };
          ledger.charges.push(charge);
          ledger.onCharge(charge);
          if (ledger.hang.has(charge.item)) {
            await new Promise((resolve) => context.signal.addEventListener('abort', resolve));
            throw new Error('the process died');
          }
          return `charged ${charge.item}`;
        },
      }),
    ],
    maxTurns: 6,
  });
}

/**
 * What a session store keeps of one session: the last snapshot and the journal written since
 * (a snapshot drops it), through JSON as a store would keep them. After `crash()` nothing more
 * is kept: the process is gone.
 */
export class StoreCopy {
  snapshot: SessionSnapshot | undefined;
  journal: TurnJournalEntry[] = [];
  private crashed = false;
  readonly controller = new AbortController();
  /** Called after each journal entry is kept (a test may crash the session then). */
  afterEntry: (entry: TurnJournalEntry) => void = () => {};

  /** The options a durable run gets from its store. */
  options(extra: RunOptions = {}): RunOptions {
    return {
      ...extra,
      internal: { nonce: NONCE },
      signal: this.controller.signal,
      onCheckpoint: (snapshot) => {
        if (this.crashed) return;
        this.snapshot = JSON.parse(JSON.stringify(snapshot)) as SessionSnapshot;
        this.journal = [];
      },
      onJournal: (entry) => {
        if (this.crashed) return;
        this.journal.push(JSON.parse(JSON.stringify(entry)) as TurnJournalEntry);
        this.afterEntry(entry);
      },
    };
  }

  /** The process dies: the session is aborted and nothing it writes after is kept. */
  crash(): void {
    this.crashed = true;
    this.controller.abort();
  }
}

/** Collects a run's events with their meta. */
export function eventLog(): {
  events: { event: AgentEvent; meta: AgentEventMeta }[];
  onEvent: (event: AgentEvent, meta: AgentEventMeta) => void;
} {
  const events: { event: AgentEvent; meta: AgentEventMeta }[] = [];
  return { events, onEvent: (event, meta) => events.push({ event, meta }) };
}
