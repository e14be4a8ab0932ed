// Everything: the HTTP faces of `./http` and the A2A, MCP and Slack headends with their SDKs.

export { createA2aHeadend } from './a2a/a2a-headend.js';
export * from './http.js';
export type { McpHeadend, McpHeadendOptions } from './mcp/mcp-headend.js';
export { createMcpHeadend } from './mcp/mcp-headend.js';
export type { McpStdioHeadend, McpStdioOptions } from './mcp/mcp-stdio.js';
export { serveMcpStdio } from './mcp/mcp-stdio.js';
export type { SlackHeadend } from './slack/slack-headend.js';
export { createSlackHeadend } from './slack/slack-headend.js';
