export { A2aError } from './errors.js';
export {
  createA2aToolProvider,
  DEFAULT_A2A_CONNECT_TIMEOUT_MS,
  DEFAULT_A2A_TIMEOUT_MS,
} from './provider.js';
export { A2A_TOOL_INPUT_SCHEMA } from './tools.js';
export type { A2aAgentOptions, A2aCallQueues, A2aCardSummary, A2aToolProvider } from './types.js';
