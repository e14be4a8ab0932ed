import { type AgentResult, ConfigError, type SessionSnapshot } from '@agent/protocol';
import type { AgentConfig, AgentSessionConfig, ResumeOptions, RunInput, RunOptions } from './config.js';
import { agentProblems } from './config-validation.js';
import { runAgent } from './session.js';

/** An agent made by `defineAgent`: its config, checked and frozen. Run it with `run`. */
export type Agent = Readonly<AgentConfig>;

/**
 * Defines an agent once: its model (or fallback `models`), `instructions`, `tools`, `output`
 * and limits. Checks the config now and throws a `ConfigError` naming every problem (each in
 * `problems`), so a
 * mistake shows at definition, not at the first run.
 */
export function defineAgent(config: AgentConfig): Agent {
  const problems = agentProblems(config);
  if (problems.length > 0) throw ConfigError.of(problems, 'invalid agent config');
  return Object.freeze({ ...config });
}

/** The session config of one run of `agent`. */
export function sessionConfig(
  agent: AgentConfig,
  input: RunInput,
  options: RunOptions = {},
): AgentSessionConfig {
  const { prompt, history, exchanges } =
    typeof input === 'string' ? { prompt: input, history: undefined, exchanges: undefined } : (input ?? {});
  return {
    ...agent,
    ...options,
    prompt: prompt as string,
    ...(history === undefined ? {} : { history }),
    ...(exchanges === undefined ? {} : { exchanges }),
  };
}

/**
 * Runs `agent` once on `input` (a prompt, or `{ prompt, history }`). Never rejects for a run
 * failure: the result says what happened; after `if (result.success)`, `result.finalReport` is
 * there. For stop/abort control mid-run: `createAgentSession({ ...agent, prompt })`.
 */
export function run(agent: AgentConfig, input: RunInput, options?: RunOptions): Promise<AgentResult> {
  return runAgent(sessionConfig(agent, input, options));
}

/**
 * Continues a session of `agent` from its snapshot (`onCheckpoint`, or a `SessionStore`): the
 * next turn sends the model what it would have sent had the session never stopped. With
 * `journal` (what `onJournal` got since that snapshot), the turn a crash broke off replays the
 * answer and the tool outcomes it journaled instead of asking the model and running those calls
 * again (`docs/sessions.md`, "Exactly once across a crash"). A snapshot of another agent, of a
 * newer version or of a finished session ends with `EXIT-CONFIGURATION` saying so.
 */
export function resume(
  agent: AgentConfig,
  snapshot: SessionSnapshot,
  options: ResumeOptions = {},
): Promise<AgentResult> {
  const { journal, ...rest } = options;
  return runAgent({
    ...agent,
    ...rest,
    prompt: '',
    resumeFrom: snapshot,
    ...(journal === undefined ? {} : { resumeJournal: journal }),
  });
}
