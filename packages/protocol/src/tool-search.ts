// Tool search (docs/tool-search.md): a session with more tools than `after` offers the model a
// search tool instead of every definition; the tools a search finds join the next request and
// stay for the rest of the session (and across a resume). These are the shapes every package shares.

/** The `toolSearch` setting of a session (core option, agent file key, agent.json default). */
export interface ToolSearchSettings {
  /**
   * Tool search is on when the session has more than this many tools (its own internal tools
   * not counted). A whole number, 0 to 100,000; 0 means always.
   */
  after: number;
  /**
   * Tools always sent, found or not: globs over tool names (`github__*`, `rest__status`). A
   * tool that no glob matches is sent only once a search has found it.
   */
  alwaysOn?: string[];
  /** The most tools one search returns (1 to 20; default 5). The model may ask for fewer. */
  maxResults?: number;
  /**
   * Let the provider load the found tools itself (Anthropic's and OpenAI's deferred loading):
   * every tool is sent all session, the hidden ones marked deferred, and a search result names the
   * tools it loads, so the tools block (and the prompt cache) never changes. Only when every model
   * of the session can (`ModelClient.deferredTools`); else the found tools join the tools as
   * without it. Default false: only some models take deferred tools (Claude Sonnet/Opus 4.5+, GPT-5.4+ on Responses).
   */
  native?: boolean;
}

/** The settings with every default filled in (`native` may stay absent: false). */
export type ResolvedToolSearch = Required<Omit<ToolSearchSettings, 'native'>> & { native?: boolean };

export const DEFAULT_TOOL_SEARCH_MAX_RESULTS = 5;
export const TOOL_SEARCH_MAX_RESULTS_LIMIT = 20;

/** Where a session's tool search stands: the tools found so far, in the order found. */
export interface ToolSearchState {
  found: string[];
}

/** One search, as its `tool_search` event tells it. */
export interface ToolSearchRun {
  /** The turn the search ran in. */
  turn: number;
  query: string;
  /** The matching tools, best first (at most `maxResults`). */
  results: string[];
  /** Of `results`, the tools this search added to the session (not found before, not always-on). */
  added: string[];
  /** Tools the session hides behind the search (all of them less the always-on ones). */
  deferred: number;
}
