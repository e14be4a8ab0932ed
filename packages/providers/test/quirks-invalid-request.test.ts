// Issue 24, item 8 (the providers' half): a request the API refuses as invalid is a `bad_request`
// that is not retryable, carrying the provider's own words; the session then moves on to the
// next target instead of sending it again (packages/core/test/scenarios/invalid-request.test.ts).
import { describe, expect, it } from 'vitest';
import { collectError } from './helpers.js';
import { clientAt, strictServers, type Target } from './strict-targets.js';

const server = strictServers();

describe('a 400 invalid_request_error', () => {
  it.each<[Target, string]>([
    [
      { type: 'openai', model: 'o3', config: { omitSampling: [] } },
      "Unsupported value: 'temperature' does not support 0.5 with this model. Only the default (1) value is supported.",
    ],
    [
      { type: 'openai-responses', model: 'o3', config: { omitSampling: [] } },
      "Unsupported parameter: 'temperature' is not supported with this model.",
    ],
    [
      { type: 'anthropic', model: 'claude-3-5-haiku', config: { outputTokenLimit: 100_000 } },
      'max_tokens: 10000 > 8192, which is the maximum allowed number of output tokens for claude-3-5-haiku',
    ],
  ])('%o is bad_request, not retryable, with the provider message', async (target, providerMessage) => {
    const s = await server();
    const client = clientAt(s, target);
    const { error } = await collectError(
      client.stream({
        messages: [{ role: 'user', content: 'hi' }],
        temperature: 0.5,
        maxOutputTokens: 10_000,
      }),
    );
    expect(error).toMatchObject({ kind: 'bad_request', retryable: false, status: 400, providerMessage });
    expect(error.message).toBe(
      `${client.provider}/${target.model}: request rejected (HTTP 400): ${providerMessage}`,
    );
    expect(s.requests).toHaveLength(1);
  });

  it("OpenRouter's wrapped error says what the upstream provider refused", async () => {
    const s = await server();
    const gemini: Target = {
      type: 'openai-compatible',
      model: 'google/gemini-3-pro-preview',
      flavour: 'openrouter',
    };
    const { error } = await collectError(
      clientAt(s, gemini).stream({
        messages: [
          { role: 'user', content: 'x' },
          { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'f', arguments: {} }] },
          { role: 'tool', toolCallId: 'call_1', toolName: 'f', content: 'y' },
        ],
      }),
    );
    expect(error).toMatchObject({ kind: 'bad_request', retryable: false });
    expect(error.providerMessage).toMatch(
      /^Provider returned error: Gemini models require OpenRouter reasoning details to be preserved/,
    );
    expect(error.providerMessage).toContain('Function call is missing a thought_signature');
  });
});
