export { type ChunkRange, chunkCount, planChunks } from './chunking.js';
export { type ChunkPlan, planChunkBudget } from './full-chunked.js';
export { countLines, HandleRegistry, isIssuableHandle, type StoredOutput } from './handles.js';
export { createToolOutputHook, ToolOutputSession } from './hook.js';
export {
  failureMessage,
  handleMessage,
  isNotFound,
  NO_DATA_MARKER,
  successMessage,
} from './messages.js';
export { StrategyError } from './model-call.js';
export {
  DEFAULT_AVG_LINE_BYTES_THRESHOLD,
  DEFAULT_EXTRACTION_OUTPUT_TOKENS,
  DEFAULT_MAP_CONCURRENCY,
  DEFAULT_MAX_CHUNKS,
  DEFAULT_OVERLAP_PERCENT,
  DEFAULT_READ_GREP_MAX_TURNS,
  DEFAULT_TRUNCATE_BYTES,
  ToolOutputConfigError,
  type ToolOutputOptions,
  toolOutputOptionProblems,
} from './options.js';
export {
  OWNER_FILE,
  type OwnerCheckOptions,
  removeDeadSessionDirs,
  SESSION_DIR_PREFIX,
  type StoreFs,
} from './owner.js';
export { isProcessAlive } from './process-identity.js';
export { mapPrompt, readGrepPrompt, reducePrompt } from './prompts.js';
export { CHILD_ROOT_DIRECTORY, READ_GREP_TOOLS } from './read-grep.js';
export { type Route, type RoutingInput, route } from './routing.js';
export {
  SWEEP_INTERVAL_MS,
  sessionDirName,
  ToolOutputStore,
  type ToolOutputStoreOptions,
} from './store.js';
export {
  EXTRACTION_MODES,
  TOOL_OUTPUT_DEFINITION,
  TOOL_OUTPUT_SCHEMA,
} from './tool-output-tool.js';
export type {
  ChildSessionConfig,
  CreateReadGrepTools,
  ExtractionMode,
  ExtractionStrategy,
  RunChildSession,
  SizingDecision,
  SizingRequest,
  StoreReason,
  ToolOutputHook,
  ToolOutputHookContext,
  ToolOutputHookFactory,
} from './types.js';
