import { startModelServer } from '@agent/testkit';
import { describe, expect, test } from 'vitest';
import { runAgentFile, validateAgentFile } from '../src/index.js';
import { sessionConfigOf } from './helpers/prepare.js';
import { finalAnswer } from './helpers/reports.js';
import { agentFile, isolated, localConfig, tempTree } from './helpers/temp-tree.js';

// The frontmatter forms of ai-agent's documentation (its Agent-Development-Frontmatter and
// specs/frontmatter pages), written afresh here: each is taken with the meaning it has there.

async function sessionOf(frontmatter: string, config: object = localConfig()) {
  const root = tempTree({
    'agent.json': config,
    'agent.ai': agentFile(`models: [local/m1]\n${frontmatter}`),
  });
  return (await sessionConfigOf(`${root}/agent.ai`, isolated(root))).config;
}

async function problemsOf(frontmatter: string, files: Record<string, string | object> = {}) {
  const root = tempTree({
    'agent.json': localConfig(),
    'agent.ai': agentFile(`models: [local/m1]\n${frontmatter}`),
    ...files,
  });
  return (await validateAgentFile('agent.ai', isolated(root))).problems;
}

describe('ai-agent frontmatter forms', () => {
  test('maxToolTurns is maxTurns', async () => {
    expect((await sessionOf('maxToolTurns: 6')).maxTurns).toBe(6);
  });

  test('maxToolTurns and maxTurns with different values is an error at the alias line', async () => {
    expect(await problemsOf('maxTurns: 4\nmaxToolTurns: 6')).toEqual([
      {
        file: 'agent.ai',
        line: 4,
        message:
          '`maxToolTurns` is another name for `maxTurns`; set one of them, not both with different values',
      },
    ]);
  });

  test('timeouts take duration strings as well as milliseconds', async () => {
    const config = await sessionOf('llmTimeout: 5m\ntoolTimeout: 30s');
    expect(config.llmTimeoutMs).toBe(300_000);
    expect(config.toolTimeoutMs).toBe(30_000);
    expect((await sessionOf('llmTimeout: 1.5h\ntoolTimeout: 250ms')).llmTimeoutMs).toBe(5_400_000);
    const root = tempTree({
      'agent.json': localConfig(),
      'agent.ai': agentFile('models: [local/m1]\nadvisors: [./adv.ai]\nadvisorTimeout: 2m'),
      'adv.ai': agentFile('models: [local/m1]'),
    });
    const { prepared } = await sessionConfigOf(`${root}/agent.ai`, isolated(root));
    expect(prepared.context.tree.root.orchestration?.advisorTimeout).toBe(120_000);
  });

  test('a duration that does not parse names what is allowed', async () => {
    const [problem] = await problemsOf('llmTimeout: 5 minutes');
    expect(problem?.line).toBe(3);
    expect(problem?.message).toBe(
      '`llmTimeout` must be a positive number of milliseconds or a duration such as 30s, 5m, 1h (per model call), got "5 minutes"',
    );
  });

  test('maxRetries: 0 is accepted: one attempt, no retry', async () => {
    expect((await sessionOf('maxRetries: 0')).maxRetries).toBe(1);
    expect((await problemsOf('maxRetries: -1'))[0]?.message).toMatch(/`maxRetries` must be an integer >= 0/);
  });

  test('reasoning: none, unset and null turn thinking off; default and inherit leave it to the defaults', async () => {
    const defaults = localConfig({ defaults: { reasoning: { effort: 'high' } } });
    expect((await sessionOf('reasoning: none')).reasoning).toEqual({ effort: 'none' });
    expect((await sessionOf('reasoning: unset')).reasoning).toEqual({ effort: 'none' });
    expect((await sessionOf('reasoning: null')).reasoning).toEqual({ effort: 'none' });
    expect((await sessionOf('reasoning: default', defaults)).reasoning).toEqual({ effort: 'high' });
    expect((await sessionOf('reasoning: inherit', defaults)).reasoning).toEqual({ effort: 'high' });
    expect((await sessionOf('reasoning: inherit')).reasoning).toBeUndefined();
  });

  test('reasoningTokens is the thinking budget; beside an effort both apply; 0 turns thinking off', async () => {
    expect((await sessionOf('reasoning: medium\nreasoningTokens: 16000')).reasoning).toEqual({
      effort: 'medium',
      budgetTokens: 16000,
    });
    expect((await sessionOf("reasoningTokens: '4096'")).reasoning).toEqual({ budgetTokens: 4096 });
    expect((await sessionOf('reasoningTokens: 0')).reasoning).toEqual({ effort: 'none' });
    expect((await problemsOf('reasoningTokens: lots'))[0]?.message).toMatch(
      /^`reasoningTokens` must be an integer >= 0 \(thinking tokens; 0 turns thinking off\), got "lots"/,
    );
  });

  test('caching takes full or none, any case', async () => {
    expect((await sessionOf('caching: FULL')).models).toHaveLength(1);
    expect((await problemsOf('caching: partial'))[0]?.message).toBe(
      '`caching` must be full or none (Anthropic prompt caching), got "partial"',
    );
  });

  test('a bare JSON Schema under input is a json input with that schema', async () => {
    const root = tempTree({
      'agent.json': localConfig(),
      'agent.ai': agentFile(
        'models: [local/m1]\ninput:\n  type: object\n  properties:\n    query: { type: string }\n  required: [query]',
      ),
    });
    const { prepared } = await sessionConfigOf(`${root}/agent.ai`, isolated(root));
    expect(prepared.context.tree.root.input).toEqual({
      format: 'json',
      schema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
    });
  });

  test('toolOutput.models names the extraction models, checked like models', async () => {
    const config = await sessionOf('toolOutput:\n  models: local/small');
    const toolOutput = config.toolOutput as { models?: { client: { model: string } }[] };
    expect(toolOutput.models?.map((t) => t.client.model)).toEqual(['small']);
    expect(await problemsOf('toolOutput:\n  models: [nowhere/m]')).toEqual([
      {
        file: 'agent.ai',
        line: 4,
        message: expect.stringMatching(/^unknown provider `nowhere` in `nowhere\/m`/),
      },
    ]);
  });

  test('plugins cannot be honoured: an error that says why, never skipped', async () => {
    const [problem] = await problemsOf('plugins:\n  - ./support-metadata.js');
    expect(problem).toEqual({
      file: 'agent.ai',
      line: 3,
      message: expect.stringMatching(
        /^`plugins`: final-report plugins \(JavaScript modules\) are not supported/,
      ),
    });
  });

  test('runtime-only keys are refused as command-line options, as ai-agent does', async () => {
    const problems = await problemsOf('traceLLM: true\naccounting: ./a.jsonl');
    expect(problems.map((p) => [p.line, p.message])).toEqual([
      [3, '`traceLLM` is a command-line option (`--trace-llm`), not a frontmatter key'],
      [4, '`accounting` is a command-line option (`--billing-file`), not a frontmatter key'],
    ]);
  });

  test('unknown keys still error with the closest valid key', async () => {
    expect((await problemsOf('toolsDenid: [x]'))[0]?.message).toBe(
      'unknown key `toolsDenid`; did you mean `toolsDenied`?',
    );
  });

  test('the complete example of the frontmatter reference validates', async () => {
    const frontmatter = [
      'description: Researches the web and reports findings',
      'usage: "Query: a research question"',
      'toolsDenied:\n  - dangerous_tool',
      'agents:\n  - ./helpers/summarizer.ai',
      'maxTurns: 15',
      'maxToolCallsPerTurn: 10',
      'maxRetries: 3',
      'temperature: 0.3',
      'reasoning: medium',
      'llmTimeout: 180000',
      'toolTimeout: 60000',
      'cache: 1h',
      'output:\n  format: json\n  schema:\n    type: object\n    properties:\n      conclusion: { type: string }\n    required: [conclusion]',
    ].join('\n');
    const problems = await problemsOf(frontmatter, {
      'helpers/summarizer.ai': agentFile('models: [local/m1]\ndescription: Summarizes'),
    });
    expect(problems).toEqual([]);
  });
});

describe('null or none for a sampling setting: the parameter is not sent', () => {
  test('temperature: null and topP: none beat the config defaults and leave the HTTP body', async () => {
    const server = await startModelServer({
      handler: (request) => ({ text: finalAnswer(request.messages, 'ok') }),
    });
    try {
      const root = tempTree({
        'agent.json': localConfig(
          { defaults: { temperature: 0.7, topP: 0.9, topK: 30 } },
          `${server.url}/v1`,
        ),
        'agent.ai': agentFile('models: [local/o3]\ntemperature: null\ntopP: none\nmaxOutputTokens: none'),
      });
      const result = await runAgentFile('agent.ai', 'go', isolated(root));
      expect(result.success).toBe(true);
      const body = server.requests[0]?.body as Record<string, unknown>;
      expect(body).not.toHaveProperty('temperature');
      expect(body).not.toHaveProperty('top_p');
      expect(body).not.toHaveProperty('max_tokens');
      expect(body).not.toHaveProperty('max_completion_tokens');
      // A default the file does not cancel is still sent.
      expect(body.top_k).toBe(30);
    } finally {
      await server.close();
    }
  });
});
