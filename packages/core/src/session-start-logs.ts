import type { SessionRecorder } from './observe/recorder.js';
import type { SeedConfig } from './seed-config.js';
import type { ToolRegistry } from './tools/tool-registry.js';

/* The log lines a session writes once, at its start, about what it was given. */

/** Seed 002's key names the session took, said once at VRB (they are accepted, not wrong). */
export function logSeedNames(seed: SeedConfig, recorder: SessionRecorder): void {
  if (seed.mapped.length === 0) return;
  recorder.log({
    severity: 'VRB',
    direction: 'request',
    type: 'llm',
    remoteIdentifier: 'agent:config',
    message: `seed 002 config names: ${seed.mapped.join('; ')}`,
  });
}

/** What the tool registry warned about while listing tools (a provider that failed), as WRN lines. */
export function logRegistryWarnings(registry: ToolRegistry, recorder: SessionRecorder): void {
  for (const warning of registry.warnings) {
    recorder.log({
      severity: 'WRN',
      direction: 'response',
      type: 'tool',
      remoteIdentifier: `mcp:${warning.provider}`,
      message: warning.message,
    });
  }
}
