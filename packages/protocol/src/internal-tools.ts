/** Names of the tools the session itself provides. They are part of the contract with the model. */
export const FINAL_REPORT_TOOL = 'agent__final_report';
/** Seed 000's short name of `agent__final_report`: a call by it is the report too. */
export const FINAL_REPORT_SHORT_NAME = 'final_report';
export const TASK_STATUS_TOOL = 'agent__task_status';
export const BATCH_TOOL = 'agent__batch';
export const TOOL_OUTPUT_TOOL = 'tool_output';
/**
 * The native tool a session with `reportBack` offers (seed 004): its input schema is the output
 * schema, and a valid call is the report and ends the session.
 */
export const REPORT_BACK_TOOL = 'report_back';
/**
 * The search tool a session with tool search on offers (docs/tool-search.md): a query in, the
 * best matching tools out; the tools it finds are sent from the next request on.
 */
export const TOOL_SEARCH_TOOL = 'tool_search';
/** Prefix of sub-agent tools: `agent__<toolName>`. */
export const SUB_AGENT_TOOL_PREFIX = 'agent__';
/** `mcpServer` value in accounting for the session's own tools. */
export const INTERNAL_TOOL_SERVER = 'agent';

/** Defaults shared by the session and its tools. */
export const DEFAULT_MAX_TURNS = 10;
export const DEFAULT_MAX_RETRIES = 3;
export const DEFAULT_CONTEXT_WINDOW = 131_072;
export const DEFAULT_CONTEXT_BUFFER = 256;

/** A call by this name carries the final report (the full name or seed 000's short one). */
export function isFinalReportName(name: string): boolean {
  return name === FINAL_REPORT_TOOL || name === FINAL_REPORT_SHORT_NAME;
}
