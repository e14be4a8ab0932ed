// Tool-name globs are compiled in one place, `@agent/schema`; re-exported here, where MCP users
// have always found `createToolFilter`. Patterns match the tool's own MCP name, not the exposed
// `<server>__<tool>` name.
export { createToolFilter, type ToolNameFilter } from '@agent/schema';
