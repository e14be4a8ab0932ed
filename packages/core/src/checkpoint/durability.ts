import type {
  ExpectedOutput,
  ModelTarget,
  SavedToolOutput,
  SessionSnapshot,
  ToolDefinition,
  ToolOutputHook,
} from '@agent/protocol';
import { resolveCompaction } from '../compaction/settings.js';
import type { AgentSessionConfig } from '../config.js';
import type { TokenEstimator } from '../context/token-estimator.js';
import { compileToolPolicy } from '../guardrails/tool-policy.js';
import { ToolPolicyReview } from '../guardrails/tool-policy-review.js';
import type { SessionState } from '../loop/session-state.js';
import type { TargetRotation } from '../loop/target-rotation.js';
import { OpTreeBuilder } from '../observe/op-tree.js';
import type { SessionRecorder } from '../observe/recorder.js';
import { resolveToolSearch } from '../tool-search/settings.js';
import {
  ApprovalGate,
  type ApprovalRule,
  approvalRule,
  DEFAULT_APPROVAL_TIMEOUT_MS,
} from '../tools/approval-gate.js';
import { internalToolsKey } from '../tools/internal-tool-choice.js';
import { isTool } from '../tools/tool.js';
import { Checkpointer } from './checkpointer.js';
import { type CheckpointParts, restoreSnapshot } from './session-checkpoint.js';
import { settingsHash } from './settings-hash.js';
import { savedOutputsOf } from './tool-output-carry.js';

export interface DurabilityInput {
  config: AgentSessionConfig;
  resumeFrom: SessionSnapshot | undefined;
  sessionId: string;
  agent: string;
  agentPath: string;
  expected: ExpectedOutput;
  reportBack: boolean;
  maxTurns: number;
  maxRetries: number;
  targets: readonly ModelTarget[];
  tools: readonly ToolDefinition[];
  nonce: string;
  state: SessionState;
  rotation: TargetRotation;
  estimator: TokenEstimator;
  recorder: SessionRecorder;
  opTree: OpTreeBuilder;
  now: () => number;
  signal: AbortSignal;
  /** The session's tool-output hook: its stored outputs go into the snapshots. */
  hook?: ToolOutputHook | undefined;
}

/** What a session that checkpoints, resumes or asks for approval adds to its loop. */
export type Durability =
  | { ok: false; error: string }
  | {
      ok: true;
      /** The resumed tree when resuming, else the one given. */
      opTree: OpTreeBuilder;
      /** For snapshots (a pause builds one even without a listener). */
      parts: CheckpointParts;
      checkpointer: Checkpointer | undefined;
      approvals: ApprovalGate | undefined;
    };

/**
 * Sets up checkpoints, resume and approval for a session. Costs next to nothing for a session
 * that uses none of them: no hash, no snapshot, no gate until one pauses.
 */
export function setUpDurability(input: DurabilityInput): Durability {
  const { config, resumeFrom } = input;
  const rule = approvalRule(config.approval?.tools, toolRules(config.tools));
  const approvalsGiven = Object.entries(config.approvals ?? {});
  const problem = approvalsProblem(
    resumeFrom,
    approvalsGiven.map(([id]) => id),
  );
  if (problem !== undefined) return { ok: false, error: problem };
  const parts = new SessionParts(input);
  let opTree = input.opTree;
  if (resumeFrom !== undefined) {
    if (resumeFrom.settingsHash !== parts.settingsHash) {
      return {
        ok: false,
        error: `resumeFrom: the snapshot of session ${resumeFrom.sessionId} was taken with other agent settings (agent "${resumeFrom.agent}", settings ${resumeFrom.settingsHash}; this agent "${input.agent}" has ${parts.settingsHash}): resume it with the agent file, models and tools that started it`,
      };
    }
    opTree = new OpTreeBuilder(input.sessionId, input.agent, input.now, structuredClone(resumeFrom.opTree));
    parts.opTree = opTree;
    restoreSnapshot(resumeFrom, parts);
  }
  const policy =
    config.toolPolicy === undefined
      ? undefined
      : new ToolPolicyReview(compileToolPolicy(config.toolPolicy), input.recorder);
  // An `arguments` guardrail may ask a person about any call: its session needs the gate too.
  const toolGuards = config.guardrails?.some((g) => g.on === 'tool') === true;
  const approvals =
    rule === undefined && policy === undefined && !toolGuards
      ? undefined
      : new ApprovalGate({
          rule,
          ...(policy === undefined ? {} : { policy }),
          approver: config.approver,
          decisions: new Map([...Object.entries(resumeFrom?.decisions ?? {}), ...approvalsGiven]),
          shown: shownHashes(resumeFrom),
          timeoutMs: config.approvalTimeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS,
          signal: input.signal,
          sessionId: input.sessionId,
          agentPath: input.agentPath,
          recorder: input.recorder,
        });
  return {
    ok: true,
    opTree,
    parts,
    checkpointer:
      config.onCheckpoint === undefined ? undefined : new Checkpointer(parts, config.onCheckpoint),
    approvals,
  };
}

/**
 * What a snapshot is built from. A class, not an object literal with a getter and keys added
 * later (V8 makes such an object a slow dictionary): one per session.
 */
class SessionParts implements CheckpointParts {
  readonly sessionId: string;
  readonly agent: string;
  readonly nonce: string;
  readonly state: SessionState;
  readonly rotation: TargetRotation;
  readonly estimator: TokenEstimator;
  readonly recorder: SessionRecorder;
  opTree: OpTreeBuilder;
  readonly now: () => number;
  readonly toolOutputs: (() => Promise<SavedToolOutput[]>) | undefined;
  /** What the settings hash is made of (not the whole input: it is not kept for the session). */
  readonly #hashed: Pick<
    DurabilityInput,
    'agent' | 'config' | 'expected' | 'reportBack' | 'maxTurns' | 'maxRetries' | 'targets' | 'tools'
  >;
  #hash: string | undefined;

  constructor(input: DurabilityInput) {
    this.sessionId = input.sessionId;
    this.agent = input.agent;
    this.nonce = input.nonce;
    this.state = input.state;
    this.rotation = input.rotation;
    this.estimator = input.estimator;
    this.recorder = input.recorder;
    this.opTree = input.opTree;
    this.now = input.now;
    this.toolOutputs = savedOutputsOf(input.hook);
    this.#hashed = {
      agent: input.agent,
      config: input.config,
      expected: input.expected,
      reportBack: input.reportBack,
      maxTurns: input.maxTurns,
      maxRetries: input.maxRetries,
      targets: input.targets,
      tools: input.tools,
    };
  }

  /**
   * Computed when a snapshot is taken or checked: a session that never pauses (a sub-agent of
   * it may) nor checkpoints never hashes its settings.
   */
  get settingsHash(): string {
    const h = this.#hashed;
    this.#hash ??= settingsHash({
      agent: h.agent,
      instructions: h.config.instructions,
      expected: h.expected,
      reportBack: h.reportBack,
      internalTools: internalToolsKey(h.config.internalTools),
      maxTurns: h.maxTurns,
      maxRetries: h.maxRetries,
      targets: h.targets,
      tools: h.tools,
      compaction: resolveCompaction(h.config.compaction),
      toolSearch: resolveToolSearch(h.config.toolSearch),
    });
    return this.#hash;
  }
}

/** No tool asks for approval itself: shared, read only. */
const NO_TOOL_RULES: ReadonlyMap<string, ApprovalRule> = new Map();

/** Each `tool()`'s own `needsApproval`, by name (a map made only when some tool has one). */
function toolRules(tools: AgentSessionConfig['tools']): ReadonlyMap<string, ApprovalRule> {
  let rules: Map<string, ApprovalRule> | undefined;
  for (const entry of tools ?? []) {
    if (!isTool(entry) || entry.needsApproval === undefined || entry.needsApproval === false) continue;
    const needs = entry.needsApproval;
    rules ??= new Map();
    rules.set(entry.name, needs === true ? () => true : (_tool, args) => needs(args));
  }
  return rules ?? NO_TOOL_RULES;
}

/** Decisions must name calls the resumed session is waiting for. */
/** The argument hashes a paused snapshot's calls were shown (pending) or decided (decisions) with, by call id. */
function shownHashes(resumeFrom: SessionSnapshot | undefined): Map<string, string> {
  const shown = new Map<string, string>();
  if (resumeFrom?.status !== 'awaiting_approval') return shown;
  for (const [id, decision] of Object.entries(resumeFrom.decisions ?? {})) {
    if (decision.argumentsHash !== undefined) shown.set(id, decision.argumentsHash);
  }
  for (const call of resumeFrom.pending ?? []) shown.set(call.callId, call.argumentsHash);
  return shown;
}

function approvalsProblem(
  resumeFrom: SessionSnapshot | undefined,
  ids: readonly string[],
): string | undefined {
  if (ids.length === 0) return undefined;
  const pending =
    resumeFrom?.status === 'awaiting_approval' ? (resumeFrom.pending ?? []).map((p) => p.callId) : [];
  const unknown = ids.filter((id) => !pending.includes(id));
  if (unknown.length === 0) return undefined;
  const waiting =
    pending.length === 0
      ? resumeFrom === undefined
        ? 'only a resumed session waits for decisions'
        : `session ${resumeFrom.sessionId} is not waiting for any decision`
      : `session ${resumeFrom!.sessionId} waits for ${pending.join(', ')}`;
  return `approvals: ${unknown.map((id) => JSON.stringify(id)).join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not a pending call; ${waiting}`;
}
