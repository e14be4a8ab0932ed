import type { ModelClient, SessionKey, ToolProvider } from '@agent/protocol';
import type { ModelRef } from '../agent-file/definition.js';
import type { SessionHookContext, SessionHooks } from '../api.js';
import { recordModelClient, TapeWriter } from '../persistence/tape-recorder.js';
import { recordToolProvider } from '../persistence/tape-tools.js';
import type { RunScope } from '../runner/run-scope.js';
import { withExecute } from './wrapping.js';

/**
 * Providers `toolCall` never answers for: sub-agents run their own sessions (recorded and hooked
 * as such), and a router's handoff (`agent`) chooses the agent that runs next.
 */
const RUNS_SESSIONS = new Set(['subagent', 'agent']);

/**
 * What a session's model clients and tool providers are wrapped in when its run records a tape
 * (`persistence.sessionsDir` / `sessionsDir`) or its runner has `sessionHooks`: the hooks
 * innermost, the recorder outside them (it keeps what the session sent and got).
 */
export interface SessionWrappers {
  modelClient(client: ModelClient, ref: ModelRef): ModelClient;
  toolProvider(provider: ToolProvider): ToolProvider;
}

/**
 * The wrappers of one session, its key taken from the run's counter; undefined when the run
 * neither records nor has hooks (nothing is wrapped, nothing costs).
 */
export function sessionWrappers(
  scope: RunScope,
  hooks: SessionHooks | undefined,
  session: { agentPath: string; sessionId: string },
): SessionWrappers | undefined {
  const hooked = hooks?.modelClient !== undefined || hooks?.toolCall !== undefined;
  if (!scope.keepsConversations && !hooked) return undefined;
  const key: SessionKey = scope.sessionKey(session.agentPath);
  const context: SessionHookContext = { session: key, sessionId: session.sessionId };
  let writer: TapeWriter | undefined;
  if (scope.keepsConversations) {
    writer = new TapeWriter(key);
    scope.tapes.set(session.sessionId, writer.tape);
  }
  return {
    modelClient(client, ref) {
      const target = { provider: ref.provider, model: ref.model };
      const hookedClient = hooks?.modelClient?.(client, { ...context, ...target }) ?? client;
      return writer === undefined ? hookedClient : recordModelClient(hookedClient, writer, target);
    },
    toolProvider(provider) {
      const answered =
        hooks?.toolCall === undefined ? provider : hookedTools(provider, hooks.toolCall, context);
      return writer === undefined ? answered : recordToolProvider(answered, writer);
    },
  };
}

/** A provider whose calls `toolCall` may answer first (never one that runs sessions). */
function hookedTools(
  provider: ToolProvider,
  toolCall: NonNullable<SessionHooks['toolCall']>,
  context: SessionHookContext,
): ToolProvider {
  if (provider.kind !== undefined && RUNS_SESSIONS.has(provider.kind)) return provider;
  const callContext = {
    ...context,
    provider: provider.id,
    ...(provider.kind === undefined ? {} : { kind: provider.kind }),
  };
  return withExecute(
    provider,
    async (call, options) => (await toolCall(call, callContext)) ?? provider.execute(call, options),
  );
}
