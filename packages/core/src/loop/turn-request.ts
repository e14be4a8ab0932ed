import type {
  AgentEvent,
  ConversationMessage,
  ExpectedOutput,
  ForcedFinalReason,
  ModelRequest,
  ModelTarget,
  ToolDefinition,
} from '@agent/protocol';
import type { ContextGuard } from '../context/context-guard.js';
import { contextPercent } from '../context/context-use.js';
import type { TokenEstimator } from '../context/token-estimator.js';
import type { SamplingOptions } from './sampling.js';
import type { SessionState } from './session-state.js';
import type { TurnNotice, TurnNotices } from './turn-notice.js';

/** The tools a notice names when the turn is not a forced final one: none (one list, not one per notice). */
export const NO_TOOLS: readonly string[] = Object.freeze([]);

/** What a turn's XML-NEXT notice is made of, besides the turn itself. */
export interface NoticeParts {
  notices: TurnNotices;
  nonce: string;
  maxTurns: number;
  maxRetries: number;
  guard: ContextGuard;
  estimator: TokenEstimator;
  expected: ExpectedOutput;
  reportBack: boolean;
}

/** The notice of `turn` and `attempt` for `target` (its context window decides the percent shown). */
export function noticeFor(
  o: NoticeParts,
  target: ModelTarget | undefined,
  turn: number,
  attempt: number,
  forcedFinal: ForcedFinalReason | undefined,
  allowedTools: readonly string[],
): TurnNotice {
  // Built whole, not spread from a base object: this runs several times per turn.
  return o.notices.render({
    nonce: o.nonce,
    turn,
    maxTurns: o.maxTurns,
    attempt,
    maxAttempts: o.maxRetries,
    contextPercent: contextPercent(o.guard, o.estimator, o.guard.windowFor(target)),
    expected: o.expected,
    forcedFinal,
    allowedTools,
    reportBack: o.reportBack,
  });
}

/** The request of one attempt: the conversation, the notice last, the tools and the sampling options. */
export function turnRequest(
  conversation: readonly ConversationMessage[],
  notice: TurnNotice,
  tools: readonly ToolDefinition[],
  sampling: SamplingOptions,
): ModelRequest {
  const messages: ConversationMessage[] = [...conversation, { role: 'user', content: notice.text }];
  // Optional fields set after the literal (same keys, same order): conditional spreads cost
  // an object and a copy each, per request.
  const request: ModelRequest = { messages };
  if (tools.length > 0) {
    request.tools = tools;
    request.toolChoice = 'auto';
  }
  return Object.assign(request, sampling);
}

/** The `turn_started` event; optional fields set after the literal (same keys, same order). */
export function turnStarted(
  state: SessionState,
  attempt: number,
  isFinal: boolean,
  retrySlugs: string[] | undefined,
): AgentEvent {
  const event: AgentEvent & { type: 'turn_started' } = {
    type: 'turn_started',
    turn: state.turn,
    attempt,
    isRetry: attempt > 1,
    isFinalTurn: isFinal,
  };
  if (state.forcedFinal !== undefined) event.forcedFinalReason = state.forcedFinal;
  if (retrySlugs !== undefined) event.retrySlugs = retrySlugs;
  return event;
}
