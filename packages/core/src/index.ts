// What users need to run a session. The tool-output seam's types (`ToolOutputHook`, ...) are in
// `@agent/protocol`; the defaults are documented in docs/turn-loop.md.
export type { AgentSessionConfig } from './config.js';
export type { RetryBackoffSettings } from './loop/retry-delay.js';
export type { AgentSession } from './session.js';
export { createAgentSession, runAgent } from './session.js';
export type { ToolOutputConfig, ToolOutputSettings } from './tools/tool-output-wiring.js';
