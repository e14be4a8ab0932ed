/**
 * The span attribute names: the OpenTelemetry GenAI semantic conventions (`gen_ai.*`, status
 * Development; the names of semantic-conventions 1.37 and later) and a few of this project's own
 * (`agent.*`) for what those conventions have no name for.
 */
export const ATTR = {
  operationName: 'gen_ai.operation.name',
  providerName: 'gen_ai.provider.name',
  requestModel: 'gen_ai.request.model',
  responseModel: 'gen_ai.response.model',
  finishReasons: 'gen_ai.response.finish_reasons',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  cacheReadTokens: 'gen_ai.usage.cache_read.input_tokens',
  agentName: 'gen_ai.agent.name',
  agentId: 'gen_ai.agent.id',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolType: 'gen_ai.tool.type',
  errorType: 'error.type',
  agentPath: 'agent.path',
  sessionId: 'agent.session.id',
  exitCode: 'agent.exit_code',
  turn: 'agent.turn',
  attempt: 'agent.attempt',
  finalTurn: 'agent.turn.final',
  costUsd: 'agent.cost_usd',
  toolServer: 'agent.tool.server',
  cached: 'agent.cached',
  reportStatus: 'agent.report.status',
  reportFormat: 'agent.report.format',
  guardrailName: 'agent.guardrail.name',
  guardrailStage: 'agent.guardrail.stage',
  guardrailPhase: 'agent.guardrail.phase',
  guardrailOutcome: 'agent.guardrail.outcome',
  guardrailReason: 'agent.guardrail.reason',
  guardrailFailedOpen: 'agent.guardrail.failed_open',
  /** On the session span: the guardrail whose trip ended the run (`EXIT-GUARDRAIL`). */
  guardrailTripped: 'agent.guardrail.tripped',
  toolCallIdOwn: 'agent.tool.call_id',
  policyDecision: 'agent.tool.policy.decision',
  policyRule: 'agent.tool.policy.rule',
  policyReason: 'agent.tool.policy.reason',
  /** On a `chat` span: why the call was made when it was not a turn's (`compaction`: a summary call). */
  llmPurpose: 'agent.llm.purpose',
  compactionIndex: 'agent.compaction.index',
  compactionOutcome: 'agent.compaction.outcome',
  /** `turn_projection` (between two turns) or `tool_result` (inside a turn). */
  compactionTrigger: 'agent.compaction.trigger',
  compactionBeforeTokens: 'agent.compaction.before_tokens',
  compactionAfterTokens: 'agent.compaction.after_tokens',
  compactionLimitTokens: 'agent.compaction.limit_tokens',
  compactionThresholdTokens: 'agent.compaction.threshold_tokens',
  compactionMessages: 'agent.compaction.messages',
  compactionFromTurn: 'agent.compaction.from_turn',
  compactionToTurn: 'agent.compaction.to_turn',
  compactionCalls: 'agent.compaction.calls',
  compactionHandle: 'agent.compaction.handle',
  compactionExhausted: 'agent.compaction.exhausted',
  /** On the session span: compactions that replaced turns. */
  compactions: 'agent.compactions',
} as const;

/** `gen_ai.operation.name` values. */
export const OPERATION = {
  invokeAgent: 'invoke_agent',
  chat: 'chat',
  executeTool: 'execute_tool',
} as const;
