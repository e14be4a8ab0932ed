export { MAX_INCLUDED_BYTES } from './agent-file/includes.js';
export { FRONTMATTER_KEYS } from './agent-file/keys.js';
export { FORMAT_DESCRIPTIONS } from './agent-file/prompt-variables.js';
export { closestName } from './agent-file/suggest.js';
export type {
  AgentRunner,
  AgentSummary,
  ClientFactory,
  ClientRequest,
  ConfigSummary,
  ResolveOptions,
  ResumeOptions,
  RunAgentFileOptions,
  RunInput,
  RunOptions,
  RuntimeErrorInit,
  RuntimeErrorKind,
  SessionHookContext,
  SessionHooks,
  SettingProblem,
  StoredSession,
  ValidationProblem,
} from './api.js';
export { type AiAgentSection, aiAgentConfigSection } from './config/ai-agent-section.js';
export { CONFIG_FILE_NAME, DEFAULT_SYSTEM_CONFIG_DIR } from './config/layers.js';
export type {
  ConfigDefaults,
  ConfigFile,
  McpServerEntry,
  ProviderEntry,
  ProviderModelEntry,
  TelemetrySection,
  TraceSamplerName,
} from './config/schema.js';
export {
  DEFAULT_MAX_CONCURRENT_SUB_AGENTS,
  DEFAULT_MAX_SUB_AGENT_DEPTH,
  TRACE_SAMPLERS,
} from './config/schema.js';
export { telemetrySettings } from './config/telemetry-settings.js';
export { RuntimeError } from './errors.js';
export { MAX_LOADED_FILE_BYTES, readRegularFile } from './files/read-regular-file.js';
export { MAX_YAML_ALIAS_COUNT, MAX_YAML_KEYS } from './files/source-locator.js';
export { MAX_LEDGER_LINE_BYTES } from './persistence/ledger.js';
export {
  findSessionRecord,
  MAX_RECORD_BYTES,
  recordFileName,
} from './persistence/record-file.js';
export {
  type ListRecordsOptions,
  listSessionRecordFiles,
  type RecordFileInfo,
} from './persistence/record-listing.js';
export { type ReadRecordOptions, readSessionRecord } from './persistence/record-read.js';
export { configuredSessionsDir, describeConfig } from './registry/describe-config.js';
export { validateAgentFile } from './registry/validate-agent-file.js';
export { type AgentToolListing, type ListedTool, listAgentTools } from './runner/list-agent-tools.js';
export { runAgentFile } from './runner/run-agent-file.js';
export { createAgentRunner } from './runner/runner.js';
export type { Configuration, SeedProvider, SeedTarget } from './seed-api/configuration.js';
export {
  type AccountingEntry,
  AIAgent,
  type AIAgentResult,
  type AIAgentSessionConfig,
  type LogEntry,
} from './seed-api/session.js';
export { resumeStoredSession } from './sessions/resume-session.js';
export { type StoreSealReport, sealStoredSnapshots } from './sessions/seal-stored-snapshots.js';
export { snapshotKeySettings } from './sessions/snapshot-key-settings.js';
export { type ConfiguredMcpServer, configuredMcpServers } from './tools/mcp-servers.js';
