import type { Hono } from 'hono';
import type { Admission } from './admission.js';

export type HeadendKind = 'rest' | 'openai' | 'anthropic' | 'mcp' | 'slack' | 'a2a';

/** A network headend: a Hono app plus the admission control `serve` drains. */
export interface Headend {
  kind: HeadendKind;
  app: Hono;
  admission: Admission;
  /** False when the headend was built with `allowNoAuth` and no tokens. */
  authRequired: boolean;
  /** Releases what the headend keeps between requests (MCP sessions); `serve` calls it on close. */
  dispose?(): Promise<void>;
}
