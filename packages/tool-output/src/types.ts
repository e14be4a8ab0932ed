import type { ToolProvider } from '@agent/protocol';

/**
 * Builds the tools of the read-grep child: a filesystem provider confined to `root` that
 * offers `Read` and `Grep` (for example `createInProcessFsProvider` of `@agent/mcp` with
 * `tools: ['Read', 'Grep']` and `naming: 'bare'`). Other tools it lists are not offered.
 */
export type CreateReadGrepTools = (root: string) => ToolProvider | Promise<ToolProvider>;

/** The strategies of `tool_output`. */
export type ExtractionMode = 'auto' | 'full-chunked' | 'read-grep' | 'truncate';
export type ExtractionStrategy = Exclude<ExtractionMode, 'auto'>;

/** Why an output was stored (or why storing it failed). */
export type StoreReason = 'size_cap' | 'token_budget' | 'reserve_failed';
