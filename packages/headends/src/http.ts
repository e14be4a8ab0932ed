// The HTTP faces (REST, OpenAI, Anthropic), serving, the catalog and the shared limits: every
// export but the A2A, MCP and Slack headends, so that a process serving none of those loads none
// of their SDKs. The package's root exports all of this and those three.
export type { A2aHeadendOptions } from './a2a/a2a-options.js';
export { DEFAULT_A2A_MAX_TASKS } from './a2a/a2a-options.js';
export type { AdmissionGate, AdmissionRefusal, SessionTicket } from './admission.js';
export { Admission, AdmissionError } from './admission.js';
export type {
  AgentCatalog,
  AgentInfo,
  ServedAgent,
  ServedApprovalRequest,
  ServedApprover,
  ServedInput,
  ServedResumeOptions,
  ServedRunOptions,
  ServedSessions,
} from './agent-catalog.js';
export { createCatalog } from './agent-catalog.js';
export { createAnthropicHeadend } from './anthropic/anthropic-headend.js';
export type { ConnectionLimits } from './connection-limits.js';
export {
  applyConnectionLimits,
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_KEEP_ALIVE_TIMEOUT_MS,
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  httpServerOptions,
  resolveConnectionLimits,
} from './connection-limits.js';
export type { Headend, HeadendKind } from './headend.js';
export type { HeadendOptions } from './headend-options.js';
export { DEFAULT_BODY_LIMIT_BYTES } from './headend-options.js';
export { hostProblem, LOOPBACK_HOSTNAMES } from './host-check.js';
export {
  DEFAULT_MCP_APPROVAL_TIMEOUT_MS,
  DEFAULT_MCP_MAX_SESSIONS,
  DEFAULT_MCP_MAX_SESSIONS_PER_TOKEN,
  DEFAULT_MCP_SESSION_IDLE_MS,
} from './mcp/session-counts.js';
export { createOpenAiHeadend } from './openai/openai-headend.js';
export type { Principal } from './principal.js';
export { ANONYMOUS_PRINCIPAL, canSee, Principals, principalId } from './principal.js';
export { runResponse } from './rest-answer.js';
export { createRestHeadend, type RestHeadendOptions } from './rest-headend.js';
export type { ServedHeadend, ServeOptions } from './serve.js';
export { isLoopbackHost, serve } from './serve.js';
export type { SlackHeadendOptions, SlackLog } from './slack/slack-options.js';
export type { SlackEngagement, SlackRoute } from './slack/slack-routing.js';
export type { UsageTotals } from './usage.js';
export { answerText, reportText, usageTotals } from './usage.js';
