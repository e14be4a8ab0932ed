import type {
  AgentEvent,
  AgentResult,
  ChildSessionConfig,
  ModelTarget,
  RunChildSession,
  ToolDefinition,
  ToolProvider,
} from '@agent/protocol';
import { errorMessage } from '@agent/protocol/util';
import type { StoredOutput } from './handles.js';
import { isNotFound, searchedLine } from './messages.js';
import { type CallReporting, StrategyError } from './model-call.js';
import { readGrepPrompt, readGrepUserMessage } from './prompts.js';
import type { ToolOutputStore } from './store.js';
import { storeReadGrepTools } from './store-read-grep.js';
import type { CreateReadGrepTools } from './types.js';

/** The only tools the child may use. */
export const READ_GREP_TOOLS: readonly string[] = ['Read', 'Grep'];

/**
 * What the child is told its root directory is. The child's tools are confined to the session
 * directory and take paths relative to it, so the root is `.`; the absolute path is never shown.
 */
export const CHILD_ROOT_DIRECTORY = '.';

/** Agent name of the child session (its agent path is `<parent>.tool_output`). */
export const CHILD_AGENT_NAME = 'tool_output';

export interface ReadGrepSettings {
  targets: readonly ModelTarget[];
  nonce: string;
  maxTurns: number;
  runChildSession: RunChildSession | undefined;
  createReadGrepTools: CreateReadGrepTools | undefined;
}

export interface ReadGrepResult {
  text: string;
  found: boolean;
}

/** A provider limited to `Read` and `Grep`, whatever else the one it wraps offers. */
function onlyReadGrep(provider: ToolProvider): ToolProvider {
  const allowed = (definition: ToolDefinition) => READ_GREP_TOOLS.includes(definition.name);
  return {
    id: provider.id,
    ...(provider.kind === undefined ? {} : { kind: provider.kind }),
    async listTools(options) {
      return (await provider.listTools(options)).filter(allowed);
    },
    execute(call, options) {
      if (!READ_GREP_TOOLS.includes(call.name)) {
        return Promise.resolve({
          ok: false,
          error: { kind: 'unknown_tool', message: `only ${READ_GREP_TOOLS.join(' and ')} can be used here` },
        });
      }
      return provider.execute(call, options);
    },
  };
}

/** Child logs that would read as the parent's own end of run are not forwarded. */
function forwardable(event: AgentEvent): boolean {
  if (event.type === 'accounting') return true;
  if (event.type !== 'log') return false;
  const { entry } = event;
  return entry.severity !== 'FIN' && !entry.remoteIdentifier.startsWith('agent:EXIT-');
}

/** The child's accounting and (forwardable) logs join the parent's. */
function forwardChildEvent(event: AgentEvent, reporting: CallReporting): void {
  if (!forwardable(event)) return;
  if (event.type === 'accounting') reporting.account(event.entry);
  else if (event.type === 'log') {
    const { timestamp: _timestamp, ...entry } = event.entry;
    reporting.log(entry);
  }
}

/**
 * The Read/Grep tools over the store directory (the configured filesystem server, else the
 * module's own over the stored outputs), or a `StrategyError` saying why there are none.
 */
async function startReadGrepTools(store: ToolOutputStore, s: ReadGrepSettings): Promise<ToolProvider> {
  if (s.createReadGrepTools === undefined) return storeReadGrepTools(store);
  const root = store.directory;
  if (root === undefined) throw new StrategyError('the store directory is gone');
  try {
    return await s.createReadGrepTools(root);
  } catch (error) {
    throw new StrategyError(`starting the Read/Grep tools failed: ${errorMessage(error)}`);
  }
}

/** The child session: told the handle is the filename, limited to `provider`, reporting to the parent. */
function childSessionConfig(
  record: StoredOutput,
  extract: string,
  s: ReadGrepSettings,
  provider: ToolProvider,
  signal: AbortSignal,
  reporting: CallReporting,
): ChildSessionConfig {
  return {
    models: s.targets,
    tools: [provider],
    instructions: readGrepPrompt({
      toolName: record.toolName,
      argumentsJson: record.argumentsJson,
      extract,
      nonce: s.nonce,
      handle: record.handle,
      rootDirectory: CHILD_ROOT_DIRECTORY,
    }),
    prompt: readGrepUserMessage(record.handle, extract),
    // Seed 001's prompt asks for the wrapper without a status: none is needed here.
    output: { format: 'text', statusOptional: true },
    maxTurns: s.maxTurns,
    signal,
    internal: { nonce: s.nonce },
    name: CHILD_AGENT_NAME,
    ...(reporting.agentPath === undefined ? {} : { parentAgentPath: reporting.agentPath }),
    isMaster: false,
    internalTools: false,
    onEvent: (event) => forwardChildEvent(event, reporting),
  };
}

/** The child's report text, trimmed; a `StrategyError` when the child gave no usable report. */
function usableReportText(result: AgentResult): string {
  const report = result.finalReport;
  // A tool result the child's final turn adopted is raw Read/Grep output, not an extraction.
  const adopted = report?.origin === 'adopted-tool-message';
  if (!result.success || report === undefined || report.synthetic === true || adopted) {
    throw new StrategyError(
      `the read-grep sub-agent gave no usable report (${result.exitCode}${result.error === undefined ? '' : `: ${result.error}`})`,
    );
  }
  const text = (
    report.content ?? (report.content_json === undefined ? '' : JSON.stringify(report.content_json))
  ).trim();
  if (text.length === 0) throw new StrategyError('the read-grep sub-agent sent an empty report');
  return text;
}

/**
 * The read-grep strategy: a child session whose only tools are `Read` and `Grep` of a
 * filesystem server pinned to the session directory, told that the handle is the filename.
 * Its accounting and logs join the parent's. A child that fails, or ends with a synthetic
 * report or a tool result adopted as its report, makes the strategy fail (`StrategyError`).
 */
export async function runReadGrep(
  store: ToolOutputStore,
  record: StoredOutput,
  extract: string,
  s: ReadGrepSettings,
  signal: AbortSignal,
  reporting: CallReporting,
): Promise<ReadGrepResult> {
  if (s.runChildSession === undefined) throw new StrategyError('no child-session runner is configured');
  const inner = await startReadGrepTools(store, s);
  const provider = onlyReadGrep(inner);
  try {
    const listed = await provider.listTools({ signal });
    if (listed.length === 0) throw new StrategyError('the filesystem tools offer neither Read nor Grep');
    const result = await s.runChildSession(
      childSessionConfig(record, extract, s, provider, signal, reporting),
    );
    signal.throwIfAborted();
    const text = usableReportText(result);
    if (!isNotFound(text)) return { text, found: true };
    return {
      text: `${text}\n${searchedLine(`the output (${record.bytes} bytes, ${record.lines} lines) with Read and Grep`, extract)}`,
      found: false,
    };
  } finally {
    await inner.close?.().catch(() => {});
  }
}
