import { describe, expect, test } from 'vitest';
import { failureMessage, handleMessage, successMessage } from '../src/messages.js';
import { mapPrompt, readGrepPrompt, reducePrompt } from '../src/prompts.js';
import { TOOL_OUTPUT_DEFINITION, TOOL_OUTPUT_SCHEMA } from '../src/tool-output-tool.js';

const HANDLE = '0f8fad5b-d9cb-469f-a165-70867728950e';

describe('messages the model reads (seed 001, exact)', () => {
  test('the handle message', () => {
    expect(handleMessage(123456, 789, 45678, HANDLE)).toBe(
      'Tool output is too large (123456 bytes, 789 lines, 45678 tokens).\n' +
        `Call tool_output(handle = "${HANDLE}", extract = "what to extract").\n` +
        'Provide precise and detailed instructions in `extract` about what you are looking for.',
    );
  });

  test('the success format', () => {
    expect(successMessage('github__search', HANDLE, 'read-grep', 'Three issues mention the crash.')).toBe(
      `ABSTRACT FROM TOOL OUTPUT github__search WITH HANDLE ${HANDLE}, STRATEGY:read-grep:\n\nThree issues mention the crash.`,
    );
  });

  test('the failure format', () => {
    expect(failureMessage('github__search', HANDLE, 'full-chunked', 'the file is gone')).toBe(
      `TOOL_OUTPUT FAILED FOR github__search WITH HANDLE ${HANDLE}, STRATEGY:full-chunked:\n\nthe file is gone`,
    );
  });

  test('the tool_output schema', () => {
    expect(TOOL_OUTPUT_DEFINITION.name).toBe('tool_output');
    expect(TOOL_OUTPUT_SCHEMA).toEqual(
      JSON.parse(`{
  "type": "object",
  "additionalProperties": false,
  "required": ["handle", "extract"],
  "properties": {
    "handle": {
      "type": "string",
      "minLength": 1,
      "description": "UUID handle of the stored tool output (provided in the tool-result message: tool_output(handle = \\"<uuid>\\", ...))."
    },
    "extract": {
      "type": "string",
      "minLength": 1,
      "description": "Provide precise, detailed instructions about what you need from the tool output (be specific, include keys/fields/sections if known)."
    },
    "mode": {
      "type": "string",
      "enum": ["auto", "full-chunked", "read-grep", "truncate"],
      "description": "Optional override. auto=module decides; full-chunked=LLM chunk+reduce; read-grep=dynamic sub-agent with Read/Grep; truncate=keeps top and bottom, truncates in the middle."
    }
  }
}`),
    );
  });
});

describe('prompts (seed 001, placeholders filled)', () => {
  const source = {
    toolName: 'fetch',
    argumentsJson: '{"url":"https://x.test/<EXTRACT_INSTRUCTIONS>"}',
    extract: 'all prices, with $& and $1 kept',
    nonce: 'abcd1234',
  };

  test('map prompt', () => {
    const text = mapPrompt({
      ...source,
      bytes: 10,
      lines: 2,
      tokens: 3,
      chunkIndex: 2,
      chunkTotal: 5,
      overlapPercent: 10,
    });
    expect(
      text,
    ).toBe(`You are an internal extraction agent. You must extract information from a document chunk.

SOURCE TOOL
- Name: fetch
- Arguments (verbatim JSON): {"url":"https://x.test/<EXTRACT_INSTRUCTIONS>"}

DOCUMENT STATS
- Bytes: 10
- Lines: 2
- Tokens (estimate): 3

CHUNK INFO
- Index: 2 of 5
- Overlap: 10%

WHAT TO EXTRACT
all prices, with $& and $1 kept

OUTPUT FORMAT (required)
- Emit exactly one XML final-report wrapper:
  <ai-agent-abcd1234-FINAL format="text"> ... </ai-agent-abcd1234-FINAL>
- Put your extracted result inside the wrapper.
- If no relevant data exists, output:
  NO RELEVANT DATA FOUND
  <short description of what kind of information is available in this chunk>`);
  });

  test('reduce prompt', () => {
    expect(
      reducePrompt({ ...source, chunkOutputs: '--- chunk 1 of 2 ---\nA' }),
    ).toBe(`You are an internal extraction agent. You must synthesize multiple chunk extractions into one final answer.

SOURCE TOOL
- Name: fetch
- Arguments (verbatim JSON): {"url":"https://x.test/<EXTRACT_INSTRUCTIONS>"}

WHAT TO EXTRACT
all prices, with $& and $1 kept

CHUNK OUTPUTS
--- chunk 1 of 2 ---
A

OUTPUT FORMAT (required)
- Emit exactly one XML final-report wrapper:
  <ai-agent-abcd1234-FINAL format="text"> ... </ai-agent-abcd1234-FINAL>
- If no relevant data exists, output:
  NO RELEVANT DATA FOUND
  <short description of what kind of information is available across the chunks>`);
  });

  test('read-grep prompt: the handle is the filename, the root is "." (no absolute path)', () => {
    expect(
      readGrepPrompt({ ...source, handle: HANDLE, rootDirectory: '.' }),
    ).toBe(`You are an internal extraction agent. You can only use Read and Grep tools.

IMPORTANT: The handle is the filename.
Use the filename exactly as given when calling Read or Grep.

SOURCE TOOL
- Name: fetch
- Arguments (verbatim JSON): {"url":"https://x.test/<EXTRACT_INSTRUCTIONS>"}
- Handle/filename: ${HANDLE}
- Root directory: .

WHAT TO EXTRACT
all prices, with $& and $1 kept

OUTPUT FORMAT (required)
- Emit exactly one XML final-report wrapper:
  <ai-agent-abcd1234-FINAL format="text"> ... </ai-agent-abcd1234-FINAL>
- If no relevant data exists, output:
  NO RELEVANT DATA FOUND
  <short description of what kind of information is available in the file>`);
  });
});
