import { execFileSync } from 'node:child_process';
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scriptedModel } from '@agent/testkit';
import { describe, expect, test } from 'vitest';
import { runAgentFile, validateAgentFile } from '../src/index.js';
import { finalAnswer } from './helpers/reports.js';
import { agentFile, isolated, localConfig, tempTree } from './helpers/temp-tree.js';

// Files an agent file refers to (includes, schemaRef, sub-agents) and the files the config
// reads (.env, agent.json): regular files only, at most 1 MiB, inside the agent's directory
// unless `allowedPaths` allows the place, and never quoted in errors.

/** Generous for a loaded machine; reading /dev/zero or waiting on a FIFO would never end. */
const BOUNDED = 20_000;

const withInclude = (target: string) => agentFile('models: [local/m]', `Intro.\n{{include: ${target}}}`);
const withSchemaRef = (target: string) =>
  agentFile(`models: [local/m]\noutput:\n  format: json\n  schemaRef: ${target}`);

async function problemsOf(root: string, entry = 'a.ai') {
  const validation = await validateAgentFile(entry, isolated(root));
  expect(validation.ok).toBe(false);
  return validation.problems;
}

function mkfifo(path: string): void {
  execFileSync('mkfifo', [path], { stdio: 'ignore' });
}

describe('only regular files, never blocking', () => {
  test('/dev/zero as an include or a schemaRef: outside the tree, and a device even when allowed', {
    timeout: BOUNDED,
  }, async () => {
    const root = tempTree({
      'agent.json': localConfig(),
      'a.ai': withInclude('/dev/zero'),
      'b.ai': withSchemaRef('/dev/zero'),
    });
    expect(await problemsOf(root, 'a.ai')).toEqual([
      {
        file: 'a.ai',
        line: 5,
        message: expect.stringMatching(/^included file `\/dev\/zero` is refused: \/dev\/zero is outside /),
      },
    ]);

    const allowed = tempTree({
      'agent.json': localConfig({ allowedPaths: ['/dev'] }),
      'a.ai': withInclude('/dev/zero'),
      'b.ai': withSchemaRef('/dev/zero'),
    });
    expect(await problemsOf(allowed, 'a.ai')).toEqual([
      {
        file: 'a.ai',
        line: 5,
        message:
          'included file `/dev/zero` cannot be read: it is a character device, not a regular file (only regular files are read) (/dev/zero)',
      },
    ]);
    expect(await problemsOf(allowed, 'b.ai')).toEqual([
      {
        file: 'b.ai',
        line: 5,
        message:
          'schema file `/dev/zero` cannot be read: it is a character device, not a regular file (only regular files are read) (/dev/zero)',
      },
    ]);
  });

  test('a FIFO as an include, a schemaRef, a sub-agent, a .env or an agent.json: an error, no hang', {
    timeout: BOUNDED,
  }, async () => {
    const root = tempTree({
      'agent.json': localConfig(),
      'inc.ai': withInclude('./pipe.md'),
      'schema.ai': withSchemaRef('./pipe.json'),
      'parent.ai': agentFile('models: [local/m]\nagents: [./child.ai]'),
    });
    for (const name of ['pipe.md', 'pipe.json', 'child.ai']) mkfifo(join(root, name));
    const fifo = 'it is a named pipe (FIFO), not a regular file (only regular files are read)';
    expect(await problemsOf(root, 'inc.ai')).toEqual([
      {
        file: 'inc.ai',
        line: 5,
        message: `included file \`./pipe.md\` cannot be read: ${fifo} (${root}/pipe.md)`,
      },
    ]);
    expect(await problemsOf(root, 'schema.ai')).toEqual([
      {
        file: 'schema.ai',
        line: 5,
        message: `schema file \`./pipe.json\` cannot be read: ${fifo} (${root}/pipe.json)`,
      },
    ]);
    expect(await problemsOf(root, 'parent.ai')).toEqual([
      {
        file: 'parent.ai',
        line: 3,
        message: `sub-agent file \`./child.ai\` cannot be read: ${fifo} (${root}/child.ai)`,
      },
    ]);

    const config = tempTree({ 'a.ai': agentFile('models: [local/m]') });
    mkfifo(join(config, 'agent.json'));
    expect(await problemsOf(config)).toEqual([
      { file: 'agent.json', message: `cannot read the config file: ${fifo}` },
    ]);
    const env = tempTree({ 'a.ai': agentFile('models: [local/m]'), 'agent.json': localConfig() });
    mkfifo(join(env, '.env'));
    expect(await problemsOf(env)).toEqual([{ file: '.env', message: `cannot read: ${fifo}` }]);
  });

  test('a 5 MB include, schema or .env is refused for its size', { timeout: BOUNDED }, async () => {
    const big = 'x'.repeat(5 * 1024 * 1024);
    const root = tempTree({
      'agent.json': localConfig(),
      'a.ai': withInclude('./big.md'),
      'b.ai': withSchemaRef('./big.json'),
      'big.md': big,
      'big.json': `"${big}"`,
    });
    const tooLarge = 'it is larger than the limit of 1 MiB';
    expect(await problemsOf(root, 'a.ai')).toEqual([
      {
        file: 'a.ai',
        line: 5,
        message: `included file \`./big.md\` cannot be read: ${tooLarge} (it has 5242880 bytes) (${root}/big.md)`,
      },
    ]);
    expect((await problemsOf(root, 'b.ai'))[0]?.message).toContain(tooLarge);
    writeFileSync(join(root, '.env'), `KEY=${big}\n`);
    expect((await problemsOf(root, 'a.ai'))[0]).toEqual({
      file: '.env',
      message: `cannot read: ${tooLarge} (it has ${big.length + 5} bytes)`,
    });
  });

  test('includes that add up to more than 4 MiB are refused, each file under the cap', async () => {
    const root = tempTree({
      'agent.json': localConfig(),
      'part.md': 'y'.repeat(900 * 1024),
      'a.ai': agentFile('models: [local/m]', Array(6).fill('{{include: part.md}}').join('\n')),
    });
    expect(await problemsOf(root)).toEqual([
      {
        file: 'a.ai',
        line: 8,
        message: 'includes add up to more than the limit of 4 MiB of text (at `part.md`)',
      },
    ]);
  });
});

describe('errors name paths, never content', () => {
  const secret = 'sk-live-9f8e7d6c5b4a39281706';

  test('a schema file with secret-looking content that does not parse', async () => {
    const root = tempTree({
      'agent.json': localConfig(),
      'a.ai': withSchemaRef('./creds.json'),
      'b.ai': withSchemaRef('./creds.yaml'),
      'creds.json': `{\n  "token": ${secret}\n}\n`,
      'creds.yaml': `token: "${secret}\\q"\n`,
    });
    const json = await problemsOf(root, 'a.ai');
    expect(json).toEqual([
      {
        file: 'a.ai',
        line: 5,
        message: 'schema file `./creds.json` is not valid JSON: unexpected character at line 2, column 12',
      },
    ]);
    const yaml = await problemsOf(root, 'b.ai');
    expect(yaml).toEqual([
      {
        file: 'b.ai',
        line: 5,
        message:
          'schema file `./creds.yaml` is not valid YAML: invalid escape sequence in a double-quoted string at line 1',
      },
    ]);
    expect(JSON.stringify([json, yaml])).not.toContain('sk-live');
  });

  test('an agent.json that is not JSON: the line and what is wrong, not the key', async () => {
    const root = tempTree({
      'agent.json': `{\n  "providers": {\n    "p": { "type": "openai", "apiKey": ${secret} }\n  }\n}\n`,
      'a.ai': agentFile('models: [p/m]'),
    });
    const problems = await problemsOf(root);
    expect(problems).toEqual([
      { file: 'agent.json', line: 3, message: 'invalid JSON: unexpected character (column 40)' },
    ]);
    expect(JSON.stringify(problems)).not.toContain('sk-live');
  });
});

describe('inside the agent file’s directory unless allowed', () => {
  function outsideTree() {
    const root = tempTree({
      'common/rules.md': 'Be brief.',
      'common/schema.json': '{ "type": "object" }',
      'common/helper.ai': agentFile('models: [local/m]'),
      'project/agent.json': localConfig(),
      'project/up.ai': withInclude('../common/rules.md'),
      'project/linked.ai': withInclude('./rules-link.md'),
      'project/schema.ai': withSchemaRef('../common/schema.json'),
      'project/parent.ai': agentFile('models: [local/m]\nagents: [../common/helper.ai]'),
    });
    symlinkSync(join(root, 'common/rules.md'), join(root, 'project/rules-link.md'));
    return { root, project: join(root, 'project') };
  }
  const hint = (root: string) =>
    `is outside ${root}/project (the top agent file's directory); to allow it, list it or a directory above it under "allowedPaths" in agent.json, e.g. "allowedPaths": ["${root}/common"]`;

  test('an include via ../, a symlink leading outside, a schemaRef and a sub-agent are refused with the hint', async () => {
    const { root, project } = outsideTree();
    expect(await problemsOf(project, 'up.ai')).toEqual([
      {
        file: 'up.ai',
        line: 5,
        message: `included file \`../common/rules.md\` is refused: ${root}/common/rules.md ${hint(root)}`,
      },
    ]);
    expect(await problemsOf(project, 'linked.ai')).toEqual([
      {
        file: 'linked.ai',
        line: 5,
        message: `included file \`./rules-link.md\` is refused: ${project}/rules-link.md is a symbolic link to ${root}/common/rules.md, which ${hint(root)}`,
      },
    ]);
    expect((await problemsOf(project, 'schema.ai'))[0]?.message).toBe(
      `schema file \`../common/schema.json\` is refused: ${root}/common/schema.json ${hint(root)}`,
    );
    expect(await problemsOf(project, 'parent.ai')).toEqual([
      {
        file: 'parent.ai',
        line: 3,
        message: `sub-agent file \`../common/helper.ai\` is refused: ${root}/common/helper.ai ${hint(root)}`,
      },
    ]);
  });

  test('"allowedPaths" in agent.json (relative to that file) lets them in', async () => {
    const { project } = outsideTree();
    writeFileSync(join(project, 'agent.json'), JSON.stringify(localConfig({ allowedPaths: ['../common'] })));
    for (const entry of ['up.ai', 'linked.ai', 'schema.ai', 'parent.ai']) {
      const validation = await validateAgentFile(entry, isolated(project));
      expect(validation.problems, entry).toEqual([]);
    }
    const model = scriptedModel([(r) => ({ text: finalAnswer(r.messages, 'ok') })]);
    const result = await runAgentFile('linked.ai', 'hi', {
      ...isolated(project),
      clientFactory: () => model,
    });
    expect(result.success).toBe(true);
    expect(model.requests[0]!.messages[0]!.content).toBe('Intro.\nBe brief.');
  });
});

describe('YAML alias bombs', () => {
  const bomb = [
    'a: &a [x, x, x, x, x, x, x, x, x]',
    'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]',
    'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]',
    'd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]',
    'e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]',
    'f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]',
  ].join('\n');

  test('in the frontmatter: a problem at the line of the first alias, not an exception', async () => {
    const root = tempTree({ 'agent.json': localConfig(), 'a.ai': agentFile(`models: [local/m]\n${bomb}`) });
    expect(await problemsOf(root)).toEqual([
      {
        file: 'a.ai',
        line: 4,
        message:
          'invalid YAML in the frontmatter: YAML aliases expand to more than 100 copies (an alias bomb?); write the values out instead of nesting aliases',
      },
    ]);
  });

  test('in a YAML schema file', async () => {
    const root = tempTree({ 'agent.json': localConfig(), 'a.ai': withSchemaRef('./s.yaml'), 's.yaml': bomb });
    expect(await problemsOf(root)).toEqual([
      {
        file: 'a.ai',
        line: 5,
        message: expect.stringMatching(
          /^schema file `\.\/s\.yaml` is not valid YAML: YAML aliases expand .* \(line 2\)$/,
        ),
      },
    ]);
  });
});
