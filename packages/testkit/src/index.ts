export type { AnswerPlan, PlannedReasoning, PlannedToolCall } from './answer-plan.js';
export { estimateUsage, planAnswer } from './answer-plan.js';
export { defaultFixturesDir, FIXTURES_DIR_ENV } from './fixtures-dir.js';
export { freePort } from './free-port.js';
export { loadedTools } from './loaded-tools.js';
export { fillNonce, NONCE_PLACEHOLDER, sessionNonce } from './nonce-placeholder.js';
export type { OtlpReceiver, ReceivedSpan } from './otlp-receiver.js';
export { receivedTree, startOtlpReceiver } from './otlp-receiver.js';
export type { RedisCluster, RedisClusterNode, RedisClusterOptions } from './redis/redis-cluster.js';
export { startRedisCluster } from './redis/redis-cluster.js';
export type { RedisServer, RedisServerOptions } from './redis/redis-server.js';
export { startRedisServer } from './redis/redis-server.js';
export type { ScriptedModel, ScriptedModelOptions } from './scripted-model.js';
export { scriptedModel } from './scripted-model.js';
export type { ModelServer, ModelServerOptions, ServerExchange } from './server/http-server.js';
export { startModelServer } from './server/http-server.js';
export type { Flavour, StrictOptions } from './server/strict/index.js';
export { FLAVOURS } from './server/strict/index.js';
export type { FakeSlack, FakeSlackMessage, SlackCall } from './slack/fake-slack.js';
export { FAKE_SLACK_BOT, startFakeSlack } from './slack/fake-slack.js';
export type { FinalReportStepOptions, StreamedFinalReportOptions } from './step-builders.js';
export { finalReport, streamedFinalReport, text, toolCall, toolCalls } from './step-builders.js';
export { UnplannedCallError } from './step-queue.js';
export type {
  RecordedRequest,
  ScriptedAnswer,
  ScriptedError,
  ScriptedFault,
  ScriptedReasoning,
  ScriptedToolCall,
  ScriptStep,
} from './steps.js';
