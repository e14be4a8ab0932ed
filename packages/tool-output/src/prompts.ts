import { COMPACTION_STORE_NAME } from '@agent/protocol';

// The system prompts of the extraction calls (seed 001, section 3a), kept as written; the
// placeholders are filled in one pass, so a value that looks like a placeholder stays as is.

const MAP_TEMPLATE = `You are an internal extraction agent. You must extract information from a document chunk.

SOURCE TOOL
- Name: <TOOL_NAME>
- Arguments (verbatim JSON): <TOOL_ARGS_JSON>

DOCUMENT STATS
- Bytes: <DOC_BYTES>
- Lines: <DOC_LINES>
- Tokens (estimate): <DOC_TOKENS>

CHUNK INFO
- Index: <CHUNK_INDEX> of <CHUNK_TOTAL>
- Overlap: <CHUNK_OVERLAP_PERCENT>%

WHAT TO EXTRACT
<EXTRACT_INSTRUCTIONS>

OUTPUT FORMAT (required)
- Emit exactly one XML final-report wrapper:
  <ai-agent-<NONCE>-FINAL format="text"> ... </ai-agent-<NONCE>-FINAL>
- Put your extracted result inside the wrapper.
- If no relevant data exists, output:
  NO RELEVANT DATA FOUND
  <short description of what kind of information is available in this chunk>`;

const REDUCE_TEMPLATE = `You are an internal extraction agent. You must synthesize multiple chunk extractions into one final answer.

SOURCE TOOL
- Name: <TOOL_NAME>
- Arguments (verbatim JSON): <TOOL_ARGS_JSON>

WHAT TO EXTRACT
<EXTRACT_INSTRUCTIONS>

CHUNK OUTPUTS
<CHUNK_OUTPUTS>

OUTPUT FORMAT (required)
- Emit exactly one XML final-report wrapper:
  <ai-agent-<NONCE>-FINAL format="text"> ... </ai-agent-<NONCE>-FINAL>
- If no relevant data exists, output:
  NO RELEVANT DATA FOUND
  <short description of what kind of information is available across the chunks>`;

const READ_GREP_TEMPLATE = `You are an internal extraction agent. You can only use Read and Grep tools.

IMPORTANT: The handle is the filename.
Use the filename exactly as given when calling Read or Grep.

SOURCE TOOL
- Name: <TOOL_NAME>
- Arguments (verbatim JSON): <TOOL_ARGS_JSON>
- Handle/filename: <HANDLE_FILENAME>
- Root directory: <SESSION_TMP_DIR>

WHAT TO EXTRACT
<EXTRACT_INSTRUCTIONS>

OUTPUT FORMAT (required)
- Emit exactly one XML final-report wrapper:
  <ai-agent-<NONCE>-FINAL format="text"> ... </ai-agent-<NONCE>-FINAL>
- If no relevant data exists, output:
  NO RELEVANT DATA FOUND
  <short description of what kind of information is available in the file>`;

/** Replaces `<NAME>` placeholders that have a value; everything else (the `<short description ...>` lines) stays. */
function fill(template: string, values: Readonly<Record<string, string | number>>): string {
  return template.replace(/<([A-Z_]+)>/g, (whole, name: string) => {
    const value = values[name];
    return value === undefined ? whole : String(value);
  });
}

/**
 * The SOURCE TOOL name the extraction model reads: a compaction transcript is not a tool's
 * output, so its name says what the document is (the templates stay as written).
 */
function sourceName(toolName: string): string {
  return toolName === COMPACTION_STORE_NAME
    ? `${toolName} (not a tool: a transcript of earlier turns of this conversation, moved out of the context window by compaction; the arguments name the turns)`
    : toolName;
}

export interface SourceInfo {
  toolName: string;
  argumentsJson: string;
  extract: string;
  nonce: string;
}

export interface MapPromptValues extends SourceInfo {
  bytes: number;
  lines: number;
  tokens: number;
  chunkIndex: number;
  chunkTotal: number;
  overlapPercent: number;
}

export function mapPrompt(v: MapPromptValues): string {
  return fill(MAP_TEMPLATE, {
    TOOL_NAME: sourceName(v.toolName),
    TOOL_ARGS_JSON: v.argumentsJson,
    DOC_BYTES: v.bytes,
    DOC_LINES: v.lines,
    DOC_TOKENS: v.tokens,
    CHUNK_INDEX: v.chunkIndex,
    CHUNK_TOTAL: v.chunkTotal,
    CHUNK_OVERLAP_PERCENT: v.overlapPercent,
    EXTRACT_INSTRUCTIONS: v.extract,
    NONCE: v.nonce,
  });
}

export function reducePrompt(v: SourceInfo & { chunkOutputs: string }): string {
  return fill(REDUCE_TEMPLATE, {
    TOOL_NAME: sourceName(v.toolName),
    TOOL_ARGS_JSON: v.argumentsJson,
    EXTRACT_INSTRUCTIONS: v.extract,
    CHUNK_OUTPUTS: v.chunkOutputs,
    NONCE: v.nonce,
  });
}

export function readGrepPrompt(v: SourceInfo & { handle: string; rootDirectory: string }): string {
  return fill(READ_GREP_TEMPLATE, {
    TOOL_NAME: sourceName(v.toolName),
    TOOL_ARGS_JSON: v.argumentsJson,
    HANDLE_FILENAME: v.handle,
    SESSION_TMP_DIR: v.rootDirectory,
    EXTRACT_INSTRUCTIONS: v.extract,
    NONCE: v.nonce,
  });
}

/** The user message of a map call: which chunk follows, then the chunk itself. */
export function mapUserMessage(chunkIndex: number, chunkTotal: number, chunk: string): string {
  return `DOCUMENT CHUNK ${chunkIndex} of ${chunkTotal}:\n\n${chunk}`;
}

export const REDUCE_USER_MESSAGE =
  'Synthesize the chunk outputs in the system prompt into one final answer, in the required wrapper.';

/** The user message of the read-grep child. */
export function readGrepUserMessage(handle: string, extract: string): string {
  return `Extract from the file "${handle}" (use Read and Grep with exactly this filename):\n\n${extract}`;
}
