export type { Agent } from './agent.js';
export { defineAgent, run } from './agent.js';
export type {
  AgentConfig,
  AgentSessionConfig,
  EventListener,
  InternalHooks,
  ModelInput,
  OutputSpec,
  RunInput,
  RunOptions,
} from './config.js';
export {
  DEFAULT_LLM_TIMEOUT_MS,
  DEFAULT_TOOL_RESPONSE_MAX_BYTES,
  DEFAULT_TOOL_TIMEOUT_MS,
  MAX_RATE_LIMIT_WAIT_MS,
  MIN_RATE_LIMIT_WAIT_MS,
} from './config.js';
export { heuristicTokens, isOpenAiFamily, TokenEstimator } from './context/token-estimator.js';
export type { RetryBackoffSettings } from './loop/retry-delay.js';
export { DEFAULT_RETRY_BASE_MS, DEFAULT_RETRY_MAX_MS } from './loop/retry-delay.js';
export type { AgentSession } from './session.js';
export { createAgentSession, runAgent } from './session.js';
export type { FromJsonSchema } from './tools/json-schema-type.js';
export { CONTEXT_BUDGET_EXCEEDED } from './tools/result-sizer.js';
export type { AnyTool, InferToolArgs, Tool, ToolContext, ToolParameters, ToolSpec } from './tools/tool.js';
export { tool } from './tools/tool.js';
export type {
  SizingDecision,
  SizingRequest,
  ToolOutputHook,
  ToolOutputHookContext,
  ToolOutputHookFactory,
} from './tools/tool-output-hook.js';
export type { ToolOutputConfig, ToolOutputSettings } from './tools/tool-output-wiring.js';
