import type { BenchSuite } from '../harness/types.js';
import { agentLoopSuite } from './agent-loop.js';
import { cacheHitSuite } from './cache-hit.js';
import { capacitySuite } from './capacity.js';
import { coldStartSuite } from './cold-start.js';
import { compactionSuite } from './compaction.js';
import { coreInProcessSuite } from './core-inprocess.js';
import { guardrailsSuite } from './guardrails.js';
import { headendLoadSuite } from './headend-load.js';
import { installSizeSuite } from './install-size.js';
import { mcpGrepSuite } from './mcp-grep.js';
import { openapiLoadSuite } from './openapi-load.js';
import { promptCacheSuite } from './prompt-cache.js';
import { queueSoakSuite } from './queue-soak.js';
import { queueSoakEffectsSuite } from './queue-soak-effects.js';
import { recordingSuite } from './recording.js';
import { toolOutputMemorySuite } from './tool-output-memory.js';
import { toolSearchSuite } from './tool-search.js';
import { xmlTransportSuite } from './xml-transport.js';

/** Every benchmark `pnpm bench` runs, in order. */
export const suites: BenchSuite[] = [
  xmlTransportSuite,
  mcpGrepSuite,
  agentLoopSuite,
  coreInProcessSuite,
  toolOutputMemorySuite,
  headendLoadSuite,
  cacheHitSuite,
  queueSoakSuite,
  queueSoakEffectsSuite,
  capacitySuite,
  openapiLoadSuite,
  guardrailsSuite,
  compactionSuite,
  toolSearchSuite,
  promptCacheSuite,
  recordingSuite,
  coldStartSuite,
  installSizeSuite,
];
