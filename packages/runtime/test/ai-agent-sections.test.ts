// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these tests are about literal ${VAR} text.
import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { resolveConfig } from '../src/config/layers.js';
import { configuredAccountingFile, validateAgentFile } from '../src/index.js';
import { agentFile, isolated, tempTree } from './helpers/temp-tree.js';

// ai-agent's `persistence` and `accounting` sections of `.ai-agent.json`, in the shapes its
// Configuration pages and session-snapshot spec document (written afresh here).

const PROVIDERS = { providers: { p: { type: 'openai', apiKey: 'k' } } };

function configOf(json: object, env: Record<string, string> = {}) {
  const root = tempTree({ '.ai-agent.json': json });
  return { root, config: resolveConfig({ ...isolated(root), env }) };
}

describe('.ai-agent.json: persistence', () => {
  test('sessionsDir is the session store: a SQLite file in that directory, relative to the file', () => {
    const { root, config } = configOf({ ...PROVIDERS, persistence: { sessionsDir: './state/sessions' } });
    expect(config.sessions?.value).toEqual({
      store: 'sqlite',
      path: join(root, 'state/sessions/sessions.sqlite'),
    });
    expect(config.warnings).toEqual([]);
  });

  test('~ and ${VAR} in the paths are filled in; billingFile is the billing file', () => {
    const { config } = configOf(
      { ...PROVIDERS, persistence: { sessionsDir: '~/.ai-agent/sessions', billingFile: '${LEDGER}' } },
      { LEDGER: '/var/tmp/ledger.jsonl' },
    );
    expect(config.sessions?.value.path).toBe(join(homedir(), '.ai-agent/sessions/sessions.sqlite'));
    expect(config.accounting?.value).toEqual({ file: '/var/tmp/ledger.jsonl' });
  });

  test("this runtime's own sections win: sessions over sessionsDir, accounting.file over billingFile", () => {
    const { root, config } = configOf({
      ...PROVIDERS,
      sessions: { store: 'sqlite', path: './mine.sqlite' },
      accounting: { file: './mine.jsonl' },
      persistence: { sessionsDir: './theirs', billingFile: './theirs.jsonl' },
    });
    expect(config.sessions?.value.path).toBe(join(root, 'mine.sqlite'));
    expect(config.accounting?.value.file).toBe(join(root, 'mine.jsonl'));
  });

  test('an unknown key or a value that is not a path is an error at its line', async () => {
    const root = tempTree({
      '.ai-agent.json': JSON.stringify(
        { ...PROVIDERS, persistence: { sessionDir: '/tmp/s', billingFile: 7 } },
        null,
        2,
      ),
      'a.ai': agentFile('models: [p/m]'),
    });
    const { ok, problems } = await validateAgentFile('a.ai', isolated(root));
    expect(ok).toBe(false);
    const text = problems.map((p) => `${p.file}:${p.line}: ${p.message}`).join('\n');
    expect(text).toContain(
      '.ai-agent.json:9: unknown key `sessionDir` in `persistence`; did you mean `sessionsDir`?',
    );
    expect(text).toContain('.ai-agent.json:10: `persistence.billingFile` must be a path');
  });
});

describe('.ai-agent.json: accounting', () => {
  test('accounting.file is the billing file the CLIs write, relative to the config file', () => {
    const root = tempTree({ '.ai-agent.json': { ...PROVIDERS, accounting: { file: './bills.jsonl' } } });
    expect(configuredAccountingFile(isolated(root))).toBe(join(root, 'bills.jsonl'));
  });

  test('agent.json takes the same section; none is undefined; an unknown key is an error', async () => {
    const root = tempTree({ 'agent.json': { ...PROVIDERS, accounting: { file: '/tmp/x.jsonl' } } });
    expect(configuredAccountingFile(isolated(root))).toBe('/tmp/x.jsonl');
    expect(configuredAccountingFile(isolated(tempTree({ 'agent.json': PROVIDERS })))).toBeUndefined();
    const bad = tempTree({
      '.ai-agent.json': { ...PROVIDERS, accounting: { fiel: 'x' } },
      'a.ai': agentFile('models: [p/m]'),
    });
    const { problems } = await validateAgentFile('a.ai', isolated(bad));
    expect(problems[0]?.message).toContain('unknown key `fiel` in `accounting`; did you mean `file`?');
  });
});
