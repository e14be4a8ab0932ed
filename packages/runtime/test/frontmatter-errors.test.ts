import { describe, expect, test } from 'vitest';
import { createAgentRunner, RuntimeError, runAgentFile, validateAgentFile } from '../src/index.js';
import { isolated, localConfig, tempTree } from './helpers/temp-tree.js';

const config = localConfig({ mcpServers: { fs: { command: 'agent-fs-mcp', args: ['.'] } } });

interface ErrorCase {
  name: string;
  file: string;
  files?: Record<string, string>;
  line: number | undefined;
  message: RegExp;
  kind?: string;
}

// Line numbers count the file as written: line 1 is the shebang or the opening `---`.
const cases: ErrorCase[] = [
  {
    name: 'unknown key, with the closest valid key',
    file: '---\nmodels: [local/m]\nmaxTurn: 3\n---\nhi\n',
    line: 3,
    message: /^unknown key `maxTurn`; did you mean `maxTurns`\?$/,
  },
  {
    name: 'unknown key far from any valid one lists the allowed keys',
    file: '---\nmodels: [local/m]\nflavour: vanilla\n---\nhi\n',
    line: 3,
    message: /^unknown key `flavour`; allowed keys: description, usage, toolName, models/,
  },
  {
    name: 'unknown nested key',
    file: '---\nmodels: [local/m]\noutput:\n  format: json\n  shema: { type: object }\n---\nhi\n',
    line: 5,
    message: /^unknown key `shema` in `output`; did you mean `schema`\?$/,
  },
  {
    name: 'wrong type',
    file: '#!/usr/bin/env agent\n---\nmodels: [local/m]\nmaxTurns: ten\n---\nhi\n',
    line: 4,
    message: /^`maxTurns` must be a positive integer \(turns\), got "ten"$/,
  },
  {
    name: 'number out of range',
    file: '---\nmodels: [local/m]\ntemperature: 3\n---\nhi\n',
    line: 3,
    message: /^`temperature` must be a number from 0 to 2, or null \/ none \(not sent\), got 3$/,
  },
  {
    name: 'enum value with a typo',
    file: '---\nmodels: [local/m]\noutput: jsn\n---\nhi\n',
    line: 3,
    message: /^`output.format` must be one of json, .*, got "jsn"; did you mean `json`\?$/,
  },
  {
    name: 'wrong type inside a list',
    file: '---\nmodels:\n  - local/m\n  - 42\n---\nhi\n',
    line: 4,
    message: /^`models\[1\]` must be a non-empty string, got 42$/,
  },
  {
    name: 'bad model reference',
    file: '---\nmodels:\n  - local/m\n  - noslash\n---\nhi\n',
    line: 4,
    message: /^model `noslash` is not a `provider\/model` reference/,
  },
  {
    name: 'unknown provider',
    file: '---\nmodels: [locl/m]\n---\nhi\n',
    line: 2,
    message: /^unknown provider `locl` in `locl\/m`; did you mean `local`\?$/,
  },
  {
    name: 'unknown MCP server',
    file: '---\nmodels: [local/m]\ntools:\n  - fss\n---\nhi\n',
    line: 4,
    message: /^unknown MCP server `fss`; did you mean `fs`\?$/,
  },
  {
    name: 'missing sub-agent file',
    file: '---\nmodels: [local/m]\nagents:\n  - ./helpers/missing.ai\n---\nhi\n',
    line: 4,
    kind: 'not_found',
    message: /^sub-agent file `\.\/helpers\/missing\.ai` does not exist \(looked for .*missing\.ai\)$/,
  },
  {
    name: 'bad YAML syntax',
    file: '---\nmodels: [local/m]\nmaxTurns: @3\n---\nhi\n',
    line: 3,
    message: /^invalid YAML in the frontmatter: Plain value cannot start with reserved character @/,
  },
  {
    name: 'duplicate key',
    file: '---\nmodels: [local/m]\nmaxTurns: 3\nmaxTurns: 4\n---\nhi\n',
    line: 4,
    message: /^invalid YAML in the frontmatter: Map keys must be unique/,
  },
  {
    name: 'frontmatter that is not a mapping',
    file: '---\n- a\n- b\n---\nhi\n',
    line: 2,
    message: /^the frontmatter must be a mapping/,
  },
  {
    name: 'frontmatter never closed',
    file: '---\nmodels: [local/m]\nhi\n',
    line: 1,
    message: /^the frontmatter opened here is never closed/,
  },
  {
    name: 'missing schema file',
    file: '---\nmodels: [local/m]\noutput:\n  format: json\n  schemaRef: ./nope.json\n---\nhi\n',
    line: 5,
    kind: 'not_found',
    message: /^schema file `\.\/nope\.json` does not exist/,
  },
  {
    name: 'schema with a text format',
    file: '---\nmodels: [local/m]\noutput:\n  format: markdown\n  schema: { type: object }\n---\nhi\n',
    line: 4,
    message: /^`output.format` must be json to use a schema/,
  },
  {
    name: 'an output schema that is not a JSON Schema',
    file: '---\nmodels: [local/m]\noutput:\n  format: json\n  schema: { type: banana }\n---\nhi\n',
    line: 5,
    message:
      /^`output.schema` is not a usable JSON Schema: \/type: must be one of "array", .* \(got "banana"\)$/,
  },
  {
    name: 'a schema file whose pattern RE2 cannot run',
    file: '---\nmodels: [local/m]\noutput:\n  format: json\n  schemaRef: ./s.json\n---\nhi\n',
    files: { 's.json': '{"type":"object","properties":{"id":{"type":"string","pattern":"(a)\\\\1"}}}' },
    line: 5,
    message:
      /^schema file `\.\/s\.json` is not a usable JSON Schema: pattern "\(a\)\\\\1" uses a backreference/,
  },
  {
    name: 'a schema file nested 20,000 levels deep',
    file: '---\nmodels: [local/m]\ninput:\n  format: json\n  schemaRef: ./deep.json\n---\nhi\n',
    files: { 'deep.json': `${'{"not":'.repeat(20_000)}{}${'}'.repeat(20_000)}` },
    line: 5,
    message:
      /^schema file `\.\/deep\.json` is not a usable JSON Schema: (\/not)+…: nests deeper than the limit of 64 levels$/,
  },
  {
    name: 'json input without a schema',
    file: '---\nmodels: [local/m]\ninput: json\n---\nhi\n',
    line: 3,
    message: /^`input.format` json needs `input.schema` or `input.schemaRef`$/,
  },
  {
    name: 'reserved tool name',
    file: '---\nmodels: [local/m]\ntoolName: final_report\n---\nhi\n',
    line: 3,
    message: /^tool name `final_report` is reserved/,
  },
  {
    name: 'no models anywhere',
    file: '---\ndescription: nothing to run on\n---\nhi\n',
    line: undefined,
    message: /^no models: list `models: \[provider\/model, \.\.\.\]`/,
  },
];

describe('agent file errors name the file, the line and what is allowed', () => {
  test.each(cases)('$name', async ({ file, files, line, message, kind }) => {
    const root = tempTree({ 'agent.json': config, 'agent.ai': file, ...files });
    const options = isolated(root);

    const validation = await validateAgentFile('agent.ai', options);
    expect(validation.ok).toBe(false);
    expect(validation.problems[0]).toEqual({
      file: 'agent.ai',
      ...(line === undefined ? {} : { line }),
      message: expect.stringMatching(message),
    });

    const error = await createAgentRunner('agent.ai', options).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RuntimeError);
    expect((error as RuntimeError).kind).toBe(kind ?? 'configuration');
    expect((error as RuntimeError).file).toBe('agent.ai');
    expect((error as RuntimeError).line).toBe(line);

    const result = await runAgentFile('agent.ai', 'hi', options);
    expect(result.success).toBe(false);
    expect(result.exitCode).toBe('EXIT-CONFIGURATION');
    const location = line === undefined ? 'agent.ai: ' : `agent.ai:${line}: `;
    expect(result.error?.startsWith(location)).toBe(true);
    expect(result.error?.slice(location.length).split('\n')[0]).toMatch(message);
  });

  test('every problem of a file is reported, each with its line', async () => {
    const root = tempTree({
      'agent.json': config,
      'agent.ai': '---\nmodels: [local/m]\nmaxTurn: 3\ntemperature: hot\ntools: fs\n---\nhi\n',
    });
    const { problems } = await validateAgentFile('agent.ai', isolated(root));
    expect(problems.map((p) => [p.line, p.message.split(';')[0]])).toEqual([
      [3, 'unknown key `maxTurn`'],
      [4, '`temperature` must be a number from 0 to 2, or null / none (not sent), got "hot"'],
    ]);
  });

  test('a missing agent file is not_found', async () => {
    const root = tempTree({ 'agent.json': config });
    const error = await createAgentRunner('nope.ai', isolated(root)).catch((e: unknown) => e);
    expect(error).toMatchObject({
      kind: 'not_found',
      file: 'nope.ai',
      message: 'nope.ai: agent file does not exist',
    });
  });

  test('a problem inside a sub-agent names the sub-agent file', async () => {
    const root = tempTree({
      'agent.json': config,
      'agent.ai': '---\nmodels: [local/m]\nagents: [./sub/child.ai]\n---\nhi\n',
      'sub/child.ai': '---\nmodels: [local/m]\nmaxTurns: 0\n---\nhi\n',
    });
    const { problems } = await validateAgentFile('agent.ai', isolated(root));
    expect(problems).toEqual([
      { file: 'sub/child.ai', line: 3, message: '`maxTurns` must be a positive integer (turns), got 0' },
    ]);
  });

  test('--model with a bad reference or an unknown provider', async () => {
    const root = tempTree({ 'agent.json': config, 'agent.ai': '---\nmodels: [local/m]\n---\nhi\n' });
    const bad = await runAgentFile('agent.ai', 'hi', { ...isolated(root), models: ['nope/m', 'x'] });
    expect(bad.exitCode).toBe('EXIT-CONFIGURATION');
    expect(bad.error).toContain('--model: model `x` is not a `provider/model` reference');
    expect(bad.error).toContain('--model: unknown provider `nope` in `nope/m`; configured providers: local');
  });
});
