// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these tests are about literal ${VAR} text.
import { arch, hostname, release, type, userInfo } from 'node:os';
import { startModelServer } from '@agent/testkit';
import { describe, expect, test } from 'vitest';
import { PROMPT_VARIABLE_NAMES } from '../src/agent-file/prompt-variables.js';
import { runAgentFile, validateAgentFile } from '../src/index.js';
import { finalAnswer } from './helpers/reports.js';
import { agentFile, isolated, localConfig, tempTree } from './helpers/temp-tree.js';

// ai-agent's prompt variables and include forms (its Agent-Development-Variables and
// Agent-Development-Includes pages): both `${NAME}` and `{{NAME}}`, both include forms.

/** Runs `agent.ai` against the testkit server; returns the system prompt of the first request. */
async function systemPromptOf(files: Record<string, string | object>): Promise<string> {
  const server = await startModelServer({
    handler: (request) => ({ text: finalAnswer(request.messages, 'ok') }),
  });
  try {
    const root = tempTree({ 'agent.json': localConfig({}, `${server.url}/v1`), ...files });
    const result = await runAgentFile('agent.ai', 'go', isolated(root));
    expect(result.success).toBe(true);
    const body = server.requests[0]?.body as { messages: { role: string; content: string }[] };
    const system = body.messages.find((m) => m.role === 'system');
    return String(system?.content);
  } finally {
    await server.close();
  }
}

describe('prompt variables reach the model filled in', () => {
  test('every variable, in both syntaxes, in the system prompt the server receives', async () => {
    const lines = PROMPT_VARIABLE_NAMES.flatMap((name) => [`${name}=\${${name}}`, `${name}={{${name}}}`]);
    const before = Math.floor(Date.now() / 1000);
    const system = await systemPromptOf({
      'agent.ai': agentFile('models: [local/m]\nmaxToolTurns: 7\nmaxToolCallsPerTurn: 3', lines.join('\n')),
    });
    const after = Math.floor(Date.now() / 1000);
    expect(system).not.toMatch(/\$\{|\{\{/);
    const values = Object.fromEntries(
      system
        .split('\n')
        .filter((line) => /^[A-Z_]+=/.test(line))
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    expect(Object.keys(values).sort()).toEqual([...PROMPT_VARIABLE_NAMES].sort());
    expect(values).toMatchObject({
      ARCH: arch(),
      KERNEL: `${type()} ${release()}`,
      HOSTNAME: hostname(),
      USER: userInfo().username,
      MAX_TURNS: '7',
      MAX_TOOLS: '3',
    });
    expect(values.OS).toContain(`(kernel ${release()})`);
    expect(values.CD).toBe(values.CWD);
    expect(values.CD).toMatch(/runtime-test-/);
    expect(Number(values.TIMESTAMP)).toBeGreaterThanOrEqual(before);
    expect(Number(values.TIMESTAMP)).toBeLessThanOrEqual(after);
    expect(values.DATETIME).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
    // Each line has the same value in both syntaxes.
    for (const name of PROMPT_VARIABLE_NAMES) {
      expect(system.split('\n').filter((line) => line.startsWith(`${name}=`))).toHaveLength(2);
    }
  });

  test('${include:path} and {{include: path}} both expand, relative to the including file, nested', async () => {
    const system = await systemPromptOf({
      'agent.ai': agentFile(
        'models: [local/m]',
        'Rules:\n${include:shared/rules.md}\n{{include: shared/tone.md}}',
      ),
      'shared/rules.md': 'Be brief. ${include:limits.md}\n',
      'shared/limits.md': 'At most ${MAX_TURNS} turns.\n',
      'shared/tone.md': 'Be kind on {{DAY}}.\n',
    });
    expect(system).toMatch(/^Rules:\nBe brief\. At most 10 turns\.\nBe kind on [A-Z][a-z]+day\./);
  });

  test('a missing ${include:...} file is an error at the line of the directive', async () => {
    const root = tempTree({
      'agent.json': localConfig(),
      'agent.ai': agentFile('models: [local/m]', 'Intro.\n${include:shared/x.md}'),
    });
    const { ok, problems } = await validateAgentFile('agent.ai', isolated(root));
    expect(ok).toBe(false);
    expect(problems).toEqual([
      { file: 'agent.ai', line: 5, message: expect.stringContaining('shared/x.md') },
    ]);
  });
});

describe('validate warns about variables no run fills in', () => {
  test('unknown ${...} and {{...}} are warnings naming file and line, in includes too; the file stays valid', async () => {
    const root = tempTree({
      'agent.json': localConfig(),
      'agent.ai': agentFile(
        'models: [local/m]',
        'Today is ${DATETIM}.\nHello {{customer_name}}.\nKeep $${HOME} as written.\n{{include: part.md}}',
      ),
      'part.md': 'line one\nTurns: ${MAX_TURN}\n',
    });
    const { ok, problems, warnings } = await validateAgentFile('agent.ai', isolated(root));
    expect(ok).toBe(true);
    expect(problems).toEqual([]);
    expect(warnings).toEqual([
      {
        file: 'agent.ai',
        line: 4,
        message:
          'unknown prompt variable `${DATETIM}`: the model gets it as written; did you mean `DATETIME`?',
      },
      {
        file: 'agent.ai',
        line: 5,
        message: expect.stringMatching(
          /^unknown prompt variable `\{\{customer_name\}\}`: the model gets it as written; known variables: FORMAT, /,
        ),
      },
      {
        file: 'part.md',
        line: 2,
        message:
          'unknown prompt variable `${MAX_TURN}`: the model gets it as written; did you mean `MAX_TURNS`?',
      },
    ]);
  });
});
