import type { HeadendOptions } from '../headend-options.js';

/** Options of the Agent2Agent face (docs/a2a.md). */
export interface A2aHeadendOptions extends HeadendOptions {
  /**
   * The base URL clients reach this face by (`https://agents.example.com`), written into each
   * agent card's interfaces as `<publicUrl>/a2a/<agent>`. Default: the origin of the request
   * that reads the card.
   */
  publicUrl?: string;
  /** Agent cards readable without a token (default true); false: a card needs a token like every call. */
  publicCard?: boolean;
  /** Also accept A2A v0.3 JSON-RPC methods (`message/send`, `tasks/get`, ...) beside v1.0 (default true). */
  legacy?: boolean;
  /** Tasks kept in memory per face (default `DEFAULT_A2A_MAX_TASKS`); older ones are read back from the session store. */
  maxTasks?: number;
  /** The card's `provider`. */
  provider?: { organization: string; url: string };
}

export const DEFAULT_A2A_MAX_TASKS = 1000;
