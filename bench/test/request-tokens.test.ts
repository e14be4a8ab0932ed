// The token table reads the requests the model server process really receives: the raw loop
// (the floor) adds nothing, agent-core's additions are its XML-NEXT notice and its internal
// tools, and the count of a body follows what it carries.
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startContender } from '../src/agent-loop/contender-launcher.js';
import { requestAdditions } from '../src/agent-loop/request-tokens.js';
import { INSTRUCTIONS, promptFor, TOOL_NAME } from '../src/agent-loop/script.js';
import { type ServerProcess, startServerProcess } from '../src/agent-loop/server-launcher.js';

describe('requestAdditions', () => {
  const prompt = promptFor({ turns: 1 });
  const tool = {
    type: 'function',
    function: {
      name: TOOL_NAME,
      description: 'Looks a key up and returns its value.',
      parameters: {
        type: 'object',
        properties: { key: { type: 'string', description: 'The key to look up.' } },
        required: ['key'],
        additionalProperties: false,
      },
    },
  };

  it('counts system text beyond the instructions, extra user messages and foreign tools', () => {
    const extraSystem = ' Always answer in French.';
    const notice = '# NOTICE\nTurn 1 of 3.';
    const internal = { type: 'function', function: { name: 'agent__x', description: 'x', parameters: {} } };
    const body = {
      messages: [
        { role: 'system', content: `${INSTRUCTIONS}${extraSystem}` },
        { role: 'user', content: prompt },
        { role: 'user', content: [{ type: 'text', text: notice }] },
      ],
      tools: [tool, internal],
    };
    const added = requestAdditions(body, prompt);
    expect(added.system).toBe(countTokens(`${INSTRUCTIONS}${extraSystem}`) - countTokens(INSTRUCTIONS));
    expect(added.notice).toBe(countTokens(notice));
    expect(added.internalTools).toBe(countTokens(JSON.stringify(internal)));
    expect(added.internalToolNames).toEqual(['agent__x']);
    expect(added.toolDefinition).toBe(0);
    expect(added.total).toBe(added.system + added.notice + added.internalTools);
  });

  it("counts what a framework adds to the agent's own tool", () => {
    const strict = { ...tool, function: { ...tool.function, strict: true } };
    const added = requestAdditions(
      { messages: [{ role: 'user', content: prompt }], tools: [strict] },
      prompt,
    );
    expect(added.toolDefinition).toBe(
      countTokens(JSON.stringify(strict)) - countTokens(JSON.stringify(tool)),
    );
    expect(added.toolDefinition).toBeGreaterThan(0);
  });
});

describe('the server process counts the requests it receives', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServerProcess();
  });
  afterAll(async () => {
    await server.close();
  });

  async function countedSession(id: string, turns: number) {
    const contender = await startContender(id, server.baseURL);
    try {
      await server.startTokens();
      const reply = await contender.call({ type: 'cpu', turns, sessions: 1, runs: 1, warmup: 0 });
      expect(reply.failures.failed).toBe(0);
      return await server.stopTokens();
    } finally {
      await contender.exit();
    }
  }

  it('the raw loop adds nothing; agent-core adds its notice and task status (not agent__batch: OpenAI calls in parallel) on every request', async () => {
    const raw = await countedSession('raw-loop', 2);
    expect(raw).toHaveLength(3);
    for (const request of raw) expect(request.total).toBe(0);

    const core = await countedSession('agent-core', 2);
    expect(core).toHaveLength(3);
    for (const request of core) {
      expect(request.notice).toBeGreaterThan(0);
      expect(request.internalToolNames).toEqual(['agent__task_status']);
      expect(request.system).toBe(0);
      expect(request.bodyBytes).toBeGreaterThan(raw[0]!.bodyBytes);
    }
  });
});
