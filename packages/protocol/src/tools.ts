import type { JsonSchema } from './json-schema.js';

/** A tool as the model sees it: a provider-safe name, a description and an input schema. */
export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  /** Name of the concurrency queue its calls wait in (see the MCP queues); default `default`. */
  queue?: string;
  /**
   * Sent but not loaded: the model sees it only once a tool result references it
   * (`ToolResultMessage.toolReferences`). Set by tool search in native mode, for clients whose
   * `deferredTools` is true.
   */
  deferLoading?: boolean;
}

/** How the model may use tools on a request. */
export type ToolChoice = 'auto' | 'none' | 'required' | { name: string };
