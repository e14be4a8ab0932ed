// What users need: the hook factory and the types of its settings. The seam types the hook
// implements (`ToolOutputHook`, `SizingRequest`, ...) are declared in `@agent/protocol`.
export { createToolOutputHook } from './hook.js';
export type { ToolOutputOptions } from './options.js';
export type { CreateReadGrepTools, ExtractionMode, ExtractionStrategy, StoreReason } from './types.js';
