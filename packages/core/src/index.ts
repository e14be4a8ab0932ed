export type { AgentSessionConfig } from './config.js';
export {
  DEFAULT_LLM_TIMEOUT_MS,
  DEFAULT_TOOL_RESPONSE_MAX_BYTES,
  DEFAULT_TOOL_TIMEOUT_MS,
  MAX_RATE_LIMIT_WAIT_MS,
  MIN_RATE_LIMIT_WAIT_MS,
} from './config.js';
export type { AgentSession } from './session.js';
export { createAgentSession, runAgent } from './session.js';
export { CONTEXT_BUDGET_EXCEEDED } from './tools/result-sizer.js';
export type {
  SizingDecision,
  SizingRequest,
  ToolOutputHook,
  ToolOutputHookContext,
  ToolOutputHookFactory,
} from './tools/tool-output-hook.js';
export type { ToolOutputConfig, ToolOutputSettings } from './tools/tool-output-wiring.js';
