import type { ResolvedToolSearch, ToolDefinition, ToolSearchRun } from '@agent/protocol';
import { toolNameMatcher } from '@agent/schema';
import type { SessionState } from '../loop/session-state.js';
import type { SessionRecorder } from '../observe/recorder.js';
import { failedText, type RawToolOutcome } from '../tools/call-runner.js';
import { NativeOffer } from './native-offer.js';
import { oneLine, ToolIndex } from './tool-index.js';
import { readToolSearchArgs, toolSearchTool } from './tool-search-tool.js';

/**
 * A session's tool search (docs/tool-search.md): which of the registry's tools are offered each
 * turn (the always-on ones, the ones found so far, `tool_search`), the searches, and the found
 * list, kept in the session state so a snapshot carries it and a resume offers the same tools.
 */
export class ToolSearch {
  readonly definition: ToolDefinition;
  private readonly byName: ReadonlyMap<string, ToolDefinition>;
  private readonly alwaysOn: readonly ToolDefinition[];
  private readonly alwaysOnNames: ReadonlySet<string>;
  private index: Promise<ToolIndex> | undefined;
  /** Set when the provider loads found tools itself (`native`, and every model can). */
  private readonly native: NativeOffer | undefined;
  /** The offered list, rebuilt only when a tool is found (the same array otherwise). */
  private offered:
    | { found: number; internal: readonly ToolDefinition[]; all: readonly ToolDefinition[] }
    | undefined;

  private constructor(
    private readonly settings: ResolvedToolSearch,
    private readonly tools: readonly ToolDefinition[],
    private readonly state: SessionState,
    private readonly recorder: SessionRecorder,
    native: boolean,
  ) {
    this.definition = toolSearchTool(settings.maxResults);
    this.byName = new Map(tools.map((tool) => [tool.name, tool]));
    const matches = toolNameMatcher(settings.alwaysOn);
    this.alwaysOn = matches === undefined ? [] : tools.filter((tool) => matches(tool.name));
    this.alwaysOnNames = new Set(this.alwaysOn.map((tool) => tool.name));
    const hidden = tools.filter((tool) => !this.alwaysOnNames.has(tool.name));
    this.native = native ? new NativeOffer(this.alwaysOn, hidden, this.definition) : undefined;
    // A restored list keeps only tools the session still has (the settings hash guards the rest).
    const restored = state.toolSearch?.found.filter((name) => this.byName.has(name)) ?? [];
    state.toolSearch = { found: restored };
  }

  /**
   * The tool search of a session with these settings and registry tools; undefined when it is off
   * (no settings, or no more tools than `after`): the session then offers every tool as before.
   * `deferredTools`: every model of the session can load deferred tools (`ModelClient.deferredTools`).
   */
  static of(
    settings: ResolvedToolSearch | undefined,
    tools: readonly ToolDefinition[],
    state: SessionState,
    recorder: SessionRecorder,
    deferredTools = false,
  ): ToolSearch | undefined {
    if (settings === undefined || tools.length <= settings.after) return undefined;
    return new ToolSearch(settings, tools, state, recorder, settings.native === true && deferredTools);
  }

  /** The tools hidden behind the search: all of them less the always-on ones. */
  get deferred(): number {
    return this.tools.length - this.alwaysOn.length;
  }

  private get found(): string[] {
    return this.state.toolSearch!.found;
  }

  /** This turn's tools: always-on ∪ found (in the order found) ∪ `tool_search` ∪ `internal`. */
  offeredWith(internal: readonly ToolDefinition[]): readonly ToolDefinition[] {
    if (this.native !== undefined)
      return this.native.offeredWith(internal, this.found, this.state.conversation);
    const found = this.found;
    const cached = this.offered;
    if (cached !== undefined && cached.found === found.length && cached.internal === internal)
      return cached.all;
    const all = [
      ...this.alwaysOn,
      ...found.map((name) => this.byName.get(name)!),
      this.definition,
      ...internal,
    ];
    this.offered = { found: found.length, internal, all };
    return all;
  }

  /**
   * A call of a registry tool the model was not offered (it saw the name in a search result, or
   * guessed it): the call runs, and the tool is offered from the next request on.
   */
  noteCalled(name: string): void {
    if (!this.byName.has(name) || this.alwaysOnNames.has(name) || this.found.includes(name)) return;
    this.found.push(name);
    this.recorder.line(
      'VRB',
      'response',
      'tool',
      'agent:tool-search',
      `${name} was called by name; it is offered from now on`,
    );
  }

  /** Runs one `tool_search` call of `turn`: the answer the model gets, and the `tool_search` event. */
  async run(args: Record<string, unknown>, turn: number): Promise<RawToolOutcome> {
    const read = readToolSearchArgs(args, this.settings.maxResults);
    if (typeof read === 'string') return { ok: false, text: failedText(read), error: 'invalid_arguments' };
    this.index ??= ToolIndex.build(this.tools);
    const results = (await this.index).find(read.query, read.limit);
    const added: string[] = [];
    for (const name of results) {
      if (this.alwaysOnNames.has(name) || this.found.includes(name)) continue;
      this.found.push(name);
      added.push(name);
    }
    const run: ToolSearchRun = { turn, query: read.query, results, added, deferred: this.deferred };
    this.recorder.emit({ type: 'tool_search', run });
    const outcome: RawToolOutcome = { ok: true, text: this.answer(read.query, results) };
    // Native: the result loads what it found (always-on tools are loaded already).
    if (this.native !== undefined) {
      outcome.toolReferences = results.filter((name) => !this.alwaysOnNames.has(name));
    }
    return outcome;
  }

  private answer(query: string, results: readonly string[]): string {
    if (results.length === 0) {
      return `No tool matches "${query}". Try other words: what the tool acts on (issue, invoice, file) or the action (create, list, delete).`;
    }
    const lines = results.map((name) => `${name}: ${oneLine(this.byName.get(name)!.description)}`);
    return `${lines.join('\n')}\n\nThese tools can be called from your next step.`;
  }
}
