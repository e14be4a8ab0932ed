import { pickSettings } from '../agent-file/settings.js';
import type { ConfigDefaults } from '../config/schema.js';
import { sessionSettings } from '../session-run/session-runner.js';

/** The core's names of the settings whose seed 002 name differs. */
const SEED_NAME: Record<string, string> = { llmTimeoutMs: 'llmTimeout', toolTimeoutMs: 'toolTimeout' };

/**
 * The session settings of `config.defaults` (sampling, retries, turns, timeouts) that the
 * session config does not set itself, under the core's name or seed 002's: the session's own win.
 */
export function defaultSettings(
  defaults: ConfigDefaults,
  given: Record<string, unknown>,
): Record<string, unknown> {
  const settings = sessionSettings(pickSettings(defaults)) as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(settings).filter(
      ([key]) =>
        given[key] === undefined && (SEED_NAME[key] === undefined || given[SEED_NAME[key]] === undefined),
    ),
  );
}
