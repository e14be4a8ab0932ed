import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { checkConversationId, checkSessionId } from '@agent/cache';
import {
  type AgentEventMeta,
  type AgentResult,
  type ConversationExchange,
  type LogEntry,
  type RecordInput,
  SESSION_OWNER_LABEL,
  type SessionSnapshot,
  type SessionStore,
  type TurnJournalEntry,
} from '@agent/protocol';
import { errorMessage } from '@agent/protocol/util';
import { contextFromTraceparent } from '@agent/telemetry';
import { context as otelContext } from '@opentelemetry/api';
import { promptFactsProblem } from '../agent-file/prompt-variables.js';
import type { ResumeOptions, RunAgentFileOptions, RunInput, RunOptions, StoredSession } from '../api.js';
import { runAgentChain } from '../orchestration/run-chain.js';
import { RunPersistence } from '../persistence/run-persistence.js';
import type { PreparedRunner, SessionRequest } from '../session-run/session-request.js';
import { RunConversation } from '../sessions/conversations.js';
import { RunnerSessions } from '../sessions/runner-sessions.js';
import { configurationFailure, runExpectedOutput } from './run-outcomes.js';
import { RunScope } from './run-scope.js';

type RunInputObject = Exclude<RunInput, string>;
type Durable = SessionRequest['durable'];

/**
 * The runs of a runner's top agent: new ones, resumed ones, and the stored sessions they leave.
 * Every run shares the runner's clients, MCP servers and session store.
 */
export class TopAgentRuns {
  private readonly sessions: RunnerSessions;
  private readonly persistence: RunPersistence;
  /** Checkpoints and resume cover one session: an agent with advisors, a router or a handoff is a chain. */
  private readonly resumable: boolean;
  /** The runner's per-run options (`pickRunOptions`), picked once: every run starts from them. */
  private readonly runDefaults: RunOptions;
  private closed = false;
  private closing: Promise<void> | undefined;

  constructor(
    private readonly prepared: PreparedRunner,
    options: RunAgentFileOptions,
  ) {
    const { config, tree } = prepared.context;
    this.sessions = new RunnerSessions(config, tree.root.path, options.sessionStore);
    const section = config.persistence?.value;
    // The runner's `sessionsDir` beats the config's (an eval keeps each case's records with its results).
    this.persistence = new RunPersistence(
      options.sessionsDir === undefined
        ? section
        : { ...section, sessionsDir: resolve(prepared.context.cwd, options.sessionsDir) },
      config.redact,
    );
    this.resumable = tree.root.orchestration === undefined;
    this.runDefaults = pickRunOptions(options);
  }

  /** A run's options over the runner's (the defaults as they are when the run gives none). */
  private merged(runOptions: RunOptions | undefined): RunOptions {
    return runOptions === undefined ? this.runDefaults : { ...this.runDefaults, ...runOptions };
  }

  private get root() {
    return this.prepared.context.tree.root;
  }

  private fail(message: string, merged: RunOptions): AgentResult {
    return configurationFailure(message, { ...merged, agentPath: this.root.toolName });
  }

  async run(input: RunInput, runOptions?: RunOptions): Promise<AgentResult> {
    const merged = this.merged(runOptions);
    const problem = runInputProblem(input, merged);
    if (problem !== undefined) return this.fail(problem, merged);
    const { prompt, history } = typeof input === 'string' ? { prompt: input, history: undefined } : input;
    if (this.closed) return this.fail('the agent runner was closed', merged);
    const conversation =
      merged.conversationId === undefined
        ? undefined
        : new RunConversation(this.sessions, merged.conversationId, prompt, merged.owner);
    const labels = runLabels(conversation, merged.owner);
    const sessionId = merged.sessionId ?? randomUUID();
    return this.execute(prompt, merged, sessionId, { given: undefined, labels, conversation }, history);
  }

  async resume(sessionId: string, resumeOptions: ResumeOptions = {}): Promise<AgentResult> {
    const { approvals, ...runOptions } = resumeOptions;
    const merged = this.merged(runOptions);
    const fail = (message: string) => this.fail(this.prepared.context.config.redact(message), merged);
    if (this.closed) return fail('the agent runner was closed');
    if (!this.resumable)
      return fail(`${this.root.file} has advisors, a router or a handoff: its runs cannot be resumed`);
    let store: SessionStore;
    let snapshot: SessionSnapshot | undefined;
    let journal: TurnJournalEntry[] = [];
    try {
      store = await this.sessions.store();
      snapshot = await store.load(sessionId);
      // An edited journal is refused here, with the snapshot: the session is not resumed.
      if (snapshot !== undefined) journal = await this.sessions.journalOf(store, snapshot.sessionId);
    } catch (error) {
      return fail(`cannot resume session ${JSON.stringify(sessionId)}: ${errorMessage(error)}`);
    }
    if (snapshot === undefined) {
      return fail(
        `no session ${JSON.stringify(sessionId)} in the session store ${store.location} (never stored, or expired: a finished session is kept for sessions.ttl, an unfinished one at least 30 days)`,
      );
    }
    const conversation = RunConversation.fromLabels(this.sessions, snapshot.labels);
    // A resumed session stays its starter's, whoever decides it (an operator may).
    const owner = snapshot.labels?.[SESSION_OWNER_LABEL];
    const labels = runLabels(conversation, owner);
    const onJournal = this.sessions.journaler(store);
    const durable: Durable = {
      resumeFrom: snapshot,
      ...(journal.length === 0 ? {} : { resumeJournal: journal }),
      ...(approvals === undefined ? {} : { approvals }),
      onCheckpoint: this.sessions.checkpointer(store, labels),
      ...(onJournal === undefined ? {} : { onJournal }),
    };
    const run = { given: durable, labels, conversation };
    return this.execute('', { ...merged, owner }, snapshot.sessionId, run);
  }

  async storedSession(sessionId: string): Promise<StoredSession | undefined> {
    checkSessionId(sessionId);
    const snapshot = await (await this.sessions.store()).load(sessionId);
    if (snapshot === undefined) return undefined;
    return { snapshot, startedHere: snapshot.labels?.agentFile === this.root.path };
  }

  close(): Promise<void> {
    this.closed = true;
    const { context } = this.prepared;
    this.closing ??= Promise.all([
      context.mcp.close(),
      context.cache?.close(),
      this.sessions.close(),
      this.persistence.flush(),
    ]).then(() => undefined);
    return this.closing;
  }

  /**
   * One run of the top agent: a new one, or (`given.resumeFrom`) a stored one continued. `labels`
   * go with each of its snapshots.
   */
  private async execute(
    prompt: string,
    merged: RunOptions,
    sessionId: string,
    run: { given: Durable; labels: Record<string, string> | undefined; conversation?: RunConversation },
    history?: RunInputObject['history'],
  ): Promise<AgentResult> {
    const { given, labels, conversation } = run;
    const { context, active } = this.prepared;
    const { config } = context;
    let exchanges: ConversationExchange[] = [];
    if (conversation !== undefined && given?.resumeFrom === undefined) {
      try {
        exchanges = await conversation.exchanges();
      } catch (error) {
        return this.fail(
          config.redact(`cannot read conversation ${conversation.id}: ${errorMessage(error)}`),
          merged,
        );
      }
    }
    const scope = new RunScope(merged.onEvent, config.redact);
    if (merged.promptFacts !== undefined) scope.promptFactOverrides = merged.promptFacts;
    const meta: AgentEventMeta = {
      isMaster: true,
      isFinal: false,
      sessionId,
      agentPath: this.root.toolName,
      ...(merged.headendId === undefined ? {} : { headendId: merged.headendId }),
    };
    const warn = (message: string) => scope.log(persistenceWarning(message), meta);
    this.persistence.attach(scope, sessionId, warn);
    // The warnings the shared MCP servers left at start, in every run's log.
    scope.logMcpWarnings(this.prepared.context.mcp.warnings, meta);
    const { durable, stored } = this.resumable
      ? this.durableOptions(merged, given, scope, meta, labels)
      : { durable: undefined, stored: () => false };
    const handle = { scope, meta };
    active.add(handle);
    try {
      const chain = () =>
        runAgentChain(
          context,
          this.topRequest(prompt, merged, { sessionId, scope, history, exchanges, durable }),
        );
      // An incoming `traceparent` (a headend's request) is the parent of the run's spans.
      const result =
        merged.traceparent === undefined
          ? await chain()
          : await otelContext.with(contextFromTraceparent(merged.traceparent, otelContext.active()), chain);
      const kept = await this.sessions.keepPaused(result, stored(), labels);
      await conversation?.record(kept, scope, meta);
      const final = scope.finish({ ...kept, finalAgentId: kept.finalAgentId ?? this.root.toolName });
      this.persistence.persist(final, scope, warn, {
        input: this.recordInput(prompt, merged, scope),
        ...(merged.owner === undefined ? {} : { owner: merged.owner }),
      });
      return final;
    } catch (error) {
      return this.fail(config.redact(errorMessage(error)), merged);
    } finally {
      active.delete(handle);
    }
  }

  /** What a run was asked, as its record keeps it (what `agent replay` runs again). */
  private recordInput(prompt: string, merged: RunOptions, scope: RunScope): RecordInput {
    return {
      agentFile: this.root.path,
      prompt,
      ...(merged.format === undefined ? {} : { format: merged.format }),
      ...(merged.schema === undefined ? {} : { schema: merged.schema as Record<string, unknown> }),
      promptFacts: scope.usedPromptFacts ?? {},
    };
  }

  /** The top agent's session request for this run. */
  private topRequest(
    prompt: string,
    merged: RunOptions,
    run: {
      sessionId: string;
      scope: RunScope;
      history: RunInputObject['history'] | undefined;
      exchanges: ConversationExchange[];
      durable: Durable;
    },
  ): SessionRequest {
    const { history, exchanges, durable } = run;
    return {
      definition: this.root,
      prompt,
      expectedOutput: runExpectedOutput(this.root, merged),
      depth: 0,
      ...(merged.maxTurns === undefined ? {} : { overrides: { maxTurns: merged.maxTurns } }),
      ...(history === undefined ? {} : { conversationHistory: history }),
      ...(exchanges.length === 0 ? {} : { exchanges }),
      ...(merged.signal === undefined ? {} : { signal: merged.signal }),
      ...(merged.stopSignal === undefined ? {} : { stopSignal: merged.stopSignal }),
      ...(merged.headendId === undefined ? {} : { headendId: merged.headendId }),
      trace: {
        llm: merged.traceLlm ?? this.prepared.trace.llm,
        mcp: merged.traceMcp ?? this.prepared.trace.mcp,
      },
      scope: run.scope,
      sessionId: run.sessionId,
      ...(durable === undefined ? {} : { durable }),
    };
  }

  /**
   * The session's checkpoint and journal listeners (a `durable` run, or a resumed one) and approver, and
   * whether its checkpoints reach a store. A durable run's store opens with its first
   * checkpoint; one that cannot open turns checkpoints off for the run, with a warning: the run
   * itself goes on.
   */
  private durableOptions(
    merged: RunOptions,
    given: Durable,
    scope: RunScope,
    meta: AgentEventMeta,
    labels: Record<string, string> | undefined,
  ): { durable: Durable; stored: () => boolean } {
    const out: NonNullable<Durable> = { ...given };
    if (merged.approver !== undefined) out.approver = merged.approver;
    if (merged.approvalTimeoutMs !== undefined) out.approvalTimeoutMs = merged.approvalTimeoutMs;
    let stored = () => out.onCheckpoint !== undefined;
    if (merged.durable === true && out.onCheckpoint === undefined) {
      const checkpoints = this.sessions.openingCheckpointer(labels, (error) =>
        scope.log(
          {
            severity: 'WRN',
            direction: 'response',
            type: 'llm',
            remoteIdentifier: 'agent:checkpoint',
            message: `the session store is unavailable, this run keeps no checkpoints: ${errorMessage(error)}`,
          },
          meta,
        ),
      );
      out.onCheckpoint = checkpoints.listener;
      if (checkpoints.journal !== undefined) out.onJournal = checkpoints.journal;
      stored = checkpoints.stored;
    }
    return { durable: Object.keys(out).length === 0 ? undefined : out, stored };
  }
}

/** The labels a run's snapshots carry: its conversation's and its owner. */
function runLabels(
  conversation: RunConversation | undefined,
  owner: string | undefined,
): Record<string, string> | undefined {
  const labels = {
    ...conversation?.labels(),
    ...(owner === undefined ? {} : { [SESSION_OWNER_LABEL]: owner }),
  };
  return Object.keys(labels).length === 0 ? undefined : labels;
}

/** The log line of a record or ledger write that failed (the run itself went on). */
function persistenceWarning(message: string): Omit<LogEntry, 'timestamp'> {
  return {
    severity: 'WRN',
    direction: 'response',
    type: 'llm',
    remoteIdentifier: 'agent:persistence',
    message,
  };
}

/** Why a run's input cannot be used, in words that say what is allowed; undefined when it can. */
function runInputProblem(input: RunInput, options: RunOptions): string | undefined {
  if (options.promptFacts !== undefined) {
    const problem = promptFactsProblem(options.promptFacts);
    if (problem !== undefined) return problem;
  }
  if (options.sessionId !== undefined) {
    try {
      checkSessionId(options.sessionId);
    } catch (error) {
      return errorMessage(error);
    }
  }
  if (options.conversationId !== undefined) {
    try {
      checkConversationId(options.conversationId);
    } catch (error) {
      return errorMessage(error);
    }
  }
  if ('conversationHistory' in options) {
    return 'conversationHistory is no longer a run option: pass the history with the prompt, run({ prompt, history })';
  }
  if (typeof input === 'string') return undefined;
  if (typeof input !== 'object' || input === null || typeof input.prompt !== 'string') {
    return 'the input must be a prompt string or { prompt: string, history?: ConversationMessage[] }';
  }
  if (input.history !== undefined && !Array.isArray(input.history)) {
    return 'history must be a list of conversation messages';
  }
  return undefined;
}

/** The per-run options given to `createAgentRunner`: defaults for every run. */
function pickRunOptions(options: RunAgentFileOptions): RunOptions {
  const {
    configPath,
    cwd,
    env,
    userConfigDir,
    systemConfigDir,
    models,
    clientFactory,
    sessionStore,
    sessionHooks,
    sessionsDir,
    ...run
  } = options;
  return run;
}
