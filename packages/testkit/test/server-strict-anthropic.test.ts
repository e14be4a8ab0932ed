// Strict mode for Anthropic Messages through the official SDK (see server-strict.test.ts).
import { describe, expect, it } from 'vitest';
import { expectRecordedRefusal, type Json, messages, refusal, server, strict } from './strict-server.js';

describe('Anthropic Messages', () => {
  const thinking = { type: 'enabled', budget_tokens: 2048 };
  const toolUse = { type: 'tool_use', id: 'toolu_1', name: 'w', input: {} };
  const toolResult = {
    role: 'user',
    content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'sunny' }],
  };

  it('with thinking on, a last tool turn must start with a thinking block (the 400 users see after a fallback)', async () => {
    await strict();
    const body = {
      model: 'claude-sonnet-4-5',
      max_tokens: 4096,
      thinking,
      messages: [
        { role: 'user', content: 'weather?' },
        { role: 'assistant', content: [toolUse] },
        toolResult,
      ],
    };
    const { status, error } = await refusal(() => messages(body));
    expect(status).toBe(400);
    expect(error).toMatchObject({
      type: 'error',
      error: {
        type: 'invalid_request_error',
        message:
          'messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`. When `thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable `thinking`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking',
      },
      request_id: expect.stringMatching(/^req_testkit_rejected_/),
    });
    // The same history without thinking, or with a signed thinking block first, passes.
    const { thinking: _, ...withoutThinking } = body;
    await messages(withoutThinking);
    expect(server().remaining).toBe(0);
  });

  it('refuses max_tokens above the model limit, budgets it cannot hold, and invalid or repeated tool ids', async () => {
    await strict();
    const user = [{ role: 'user', content: 'hi' }];
    const limit = await refusal(() =>
      messages({ model: 'claude-sonnet-4-5', max_tokens: 70_000, messages: user }),
    );
    expect((limit.error.error as Json).message).toBe(
      'max_tokens: 70000 > 64000, which is the maximum allowed number of output tokens for claude-sonnet-4-5',
    );
    const budget = await refusal(() =>
      messages({ model: 'claude-sonnet-4-5', max_tokens: 2048, thinking, messages: user }),
    );
    expect((budget.error.error as Json).message).toMatch(
      /^`max_tokens` must be greater than `thinking.budget_tokens`/,
    );
    const pattern = await refusal(() =>
      messages({
        model: 'claude-sonnet-4-5',
        max_tokens: 100,
        messages: [
          { role: 'user', content: 'weather?' },
          { role: 'assistant', content: [{ ...toolUse, id: 'functions.w:0' }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'functions.w:0', content: 'x' }] },
        ],
      }),
    );
    expect((pattern.error.error as Json).message).toBe(
      "messages.1.content.0.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'",
    );
    const twice = await refusal(() =>
      messages({
        model: 'claude-sonnet-4-5',
        max_tokens: 100,
        messages: [
          { role: 'user', content: 'weather?' },
          { role: 'assistant', content: [toolUse] },
          toolResult,
          { role: 'assistant', content: [toolUse] },
          toolResult,
        ],
      }),
    );
    expect((twice.error.error as Json).message).toBe('messages.3.content.0: `tool_use` ids must be unique');
    expect(server().remaining).toBe(1);
  });

  it('refuses more than 4 cache_control breakpoints, counting system, tools, messages and tool results', async () => {
    await strict();
    const mark = { cache_control: { type: 'ephemeral' } };
    const body = () => ({
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      system: [{ type: 'text', text: 'You are terse.', ...mark }],
      tools: [{ name: 'w', input_schema: { type: 'object' }, ...mark }],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'weather?' },
            { type: 'text', text: 'summary', ...mark },
          ],
        },
        { role: 'assistant', content: [{ ...toolUse, ...mark }] },
        {
          role: 'user',
          content: [{ ...toolResult.content[0], content: [{ type: 'text', text: 'x', ...mark }] }],
        },
      ],
    });
    const five = await refusal(() => messages(body()));
    expect(five.status).toBe(400);
    expect((five.error.error as Json).message).toBe(
      'A maximum of 4 blocks with cache_control may be provided. Found 5.',
    );
    expectRecordedRefusal(400, 'A maximum of 4 blocks with cache_control may be provided. Found 5.');
    const four: Json = body();
    // The same request with the tool result unmarked: 4 marks, answered.
    (four.messages as Json[])[2] = toolResult;
    await messages(four);
    expect(server().requests.at(-1)?.rejected).toBeUndefined();
    expect(server().remaining).toBe(0);
  });
});
