// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these tests are about literal ${VAR} text.
import { scriptedModel } from '@agent/testkit';
import { describe, expect, test } from 'vitest';
import { expandPromptVariables, promptVariables } from '../src/agent-file/prompt-variables.js';
import { createAgentRunner, runAgentFile, validateAgentFile } from '../src/index.js';
import { finalAnswer } from './helpers/reports.js';
import { agentFile, isolated, localConfig, tempTree } from './helpers/temp-tree.js';

describe('prompt variables', () => {
  test('values for a fixed time and zone', () => {
    const values = promptVariables({
      format: 'json',
      cwd: '/work',
      now: new Date('2025-06-01T21:30:05Z'),
      timeZone: 'Europe/Athens',
    });
    expect(values).toMatchObject({
      FORMAT: 'a JSON object matching the schema of the final report',
      DATETIME: '2025-06-02T00:30:05+03:00',
      DATE: '2025-06-02',
      TIME: '00:30:05',
      DAY: 'Monday',
      TIMEZONE: 'Europe/Athens',
      TIMESTAMP: '1748813405',
      CWD: '/work',
      CD: '/work',
      MAX_TURNS: '10',
      MAX_TOOLS: 'unlimited',
    });
    expect(promptVariables({ format: 'text', cwd: '/', now: new Date(0), timeZone: 'UTC' }).DATETIME).toBe(
      '1970-01-01T00:00:00+00:00',
    );
  });

  test('values given as a function are made once, and only for a prompt that uses a variable', () => {
    let made = 0;
    const values = () => {
      made++;
      return { CWD: '/w', DATE: '2025-06-02' };
    };
    expect(expandPromptVariables('No variables here; literally $${CWD}.', values)).toBe(
      'No variables here; literally ${CWD}.',
    );
    expect(made).toBe(0);
    expect(expandPromptVariables('In ${CWD} on {{ DATE }}, not ${HOME}.', values)).toBe(
      'In /w on 2025-06-02, not ${HOME}.',
    );
    expect(made).toBe(1);
  });

  test('known names are filled, unknown ones and $${X} are left for the reader', () => {
    const text = 'Use ${FORMAT} in ${CWD}; run `echo ${HOME}`; literally $${CWD}.';
    expect(expandPromptVariables(text, { FORMAT: 'plain text', CWD: '/w' })).toBe(
      'Use plain text in /w; run `echo ${HOME}`; literally ${CWD}.',
    );
  });

  test('the format of the run (--format) decides ${FORMAT}', async () => {
    const root = tempTree({
      'agent.json': localConfig(),
      'a.ai': agentFile('models: [local/m]', 'Answer as ${FORMAT}.'),
    });
    const model = scriptedModel([(r) => ({ text: finalAnswer(r.messages, 'plain', 'text') })]);
    const result = await runAgentFile('a.ai', 'hi', {
      ...isolated(root),
      format: 'text',
      clientFactory: () => model,
    });
    expect(result.finalReport?.format).toBe('text');
    expect(model.requests[0]!.messages[0]!.content).toBe('Answer as plain text.');
  });
});

describe('includes', () => {
  test('{{include: path}} is relative to the including file, and nests', async () => {
    const root = tempTree({
      // `common/` is outside the top agent file's directory (`agents/`): it needs the allowance.
      'agent.json': localConfig({ allowedPaths: ['common'] }),
      'agents/a.ai': agentFile('models: [local/m]', 'Start.\n{{include: ../common/rules.md}}\nEnd.'),
      'common/rules.md': 'Rule one.\n{{ include: more/extra.md }}\n',
      'common/more/extra.md': 'Rule two (${FORMAT}).\n',
    });
    const runner = await createAgentRunner('agents/a.ai', isolated(root));
    expect(runner.summary.toolName).toBe('a');
    const model = scriptedModel([(r) => ({ text: finalAnswer(r.messages, 'ok') })]);
    const result = await runAgentFile('agents/a.ai', 'hi', { ...isolated(root), clientFactory: () => model });
    await runner.close();
    expect(result.success).toBe(true);
    expect(model.requests[0]!.messages[0]!.content).toBe(
      'Start.\nRule one.\nRule two (GitHub-flavoured Markdown).\nEnd.',
    );
  });

  test('an include cycle and a missing include are errors with the line of the directive', async () => {
    const root = tempTree({
      'agent.json': localConfig(),
      'a.ai': agentFile('models: [local/m]', 'Intro.\n{{include: one.md}}'),
      'one.md': 'One.\n\n{{include: two.md}}',
      'two.md': '{{include: one.md}}',
      'b.ai': agentFile('models: [local/m]', '\n\n{{include: nowhere.md}}'),
    });
    const cycle = await validateAgentFile('a.ai', isolated(root));
    expect(cycle.problems).toEqual([
      { file: 'two.md', line: 1, message: 'include cycle: one.md -> two.md -> one.md' },
    ]);
    const missing = await validateAgentFile('b.ai', isolated(root));
    expect(missing.problems).toEqual([
      {
        file: 'b.ai',
        line: 6,
        message: `included file \`nowhere.md\` does not exist (looked for ${root}/nowhere.md)`,
      },
    ]);
  });
});
