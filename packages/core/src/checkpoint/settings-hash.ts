import { createHash } from 'node:crypto';
import type {
  ExpectedOutput,
  ModelTarget,
  ResolvedCompaction,
  ResolvedToolSearch,
  ToolDefinition,
} from '@agent/protocol';

/** What shapes the requests a session sends; a snapshot only resumes under the same. */
export interface HashedSettings {
  agent: string;
  instructions: string | undefined;
  expected: ExpectedOutput;
  reportBack: boolean;
  /** `internalToolsKey` of the setting. */
  internalTools: boolean | string;
  maxTurns: number;
  maxRetries: number;
  targets: readonly ModelTarget[];
  tools: readonly ToolDefinition[];
  /** The resolved compaction settings, when the session compacts (absent: off). */
  compaction?: ResolvedCompaction | undefined;
  /** The resolved tool search settings, when the session has them (absent: off). */
  toolSearch?: ResolvedToolSearch | undefined;
}

/**
 * `sha256:` and 16 hex digits over the settings, in a fixed key order (tool names sorted, so
 * MCP servers listing in another order do not count as another agent). Computed only when a
 * session checkpoints or resumes.
 */
export function settingsHash(settings: HashedSettings): string {
  const canonical = JSON.stringify([
    settings.agent,
    settings.instructions ?? '',
    settings.expected.format,
    settings.expected.schema ?? null,
    settings.reportBack,
    settings.internalTools,
    settings.maxTurns,
    settings.maxRetries,
    settings.targets.map((target) => `${target.client.provider}/${target.client.model}`),
    settings.tools.map((tool) => tool.name).sort(),
    // Appended only when on: the hash of every session without compaction stays as it was.
    ...(settings.compaction === undefined
      ? []
      : [
          [
            settings.compaction.at,
            settings.compaction.keep,
            settings.compaction.attempts,
            settings.compaction.tokens,
          ],
        ]),
    // The same for tool search: it changes which tools each request offers.
    ...(settings.toolSearch === undefined
      ? []
      : [
          [
            'toolSearch',
            settings.toolSearch.after,
            settings.toolSearch.alwaysOn,
            settings.toolSearch.maxResults,
            // Only when on, so the hash of a session without it stays as it was.
            ...(settings.toolSearch.native === true ? ['native'] : []),
          ],
        ]),
  ]);
  return `sha256:${createHash('sha256').update(canonical).digest('hex').slice(0, 16)}`;
}
