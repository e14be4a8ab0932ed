export type { A2aAgentOptions, A2aCardSummary, A2aToolProvider } from './types.js';
