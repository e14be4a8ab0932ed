// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these tests are about literal ${VAR} text.
import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { resolveConfig } from '../src/config/layers.js';
import { configuredSessionsDir, validateAgentFile } from '../src/index.js';
import { agentFile, isolated, tempTree } from './helpers/temp-tree.js';

// ai-agent's `persistence` and `accounting` sections of `.ai-agent.json`, in the shapes its
// Configuration pages and session-snapshot spec document (written afresh here).

const PROVIDERS = { providers: { p: { type: 'openai', apiKey: 'k' } } };

function configOf(json: object, env: Record<string, string> = {}) {
  const root = tempTree({ '.ai-agent.json': json });
  return { root, config: resolveConfig({ ...isolated(root), env }) };
}

describe('.ai-agent.json: persistence', () => {
  test("sessionsDir is this runtime's persistence.sessionsDir (the session records), relative to the file", () => {
    const { root, config } = configOf({ ...PROVIDERS, persistence: { sessionsDir: './state/sessions' } });
    expect(config.persistence?.value).toEqual({ sessionsDir: join(root, 'state/sessions') });
    // Not the resumable session store: that stays the runtime's own default.
    expect(config.sessions).toBeUndefined();
    expect(config.warnings).toEqual([]);
  });

  test('~ and ${VAR} in the paths are filled in; billingFile is the billing file', () => {
    const { config } = configOf(
      { ...PROVIDERS, persistence: { sessionsDir: '~/.ai-agent/sessions', billingFile: '${LEDGER}' } },
      { LEDGER: '/var/tmp/ledger.jsonl' },
    );
    expect(config.persistence?.value).toEqual({
      sessionsDir: join(homedir(), '.ai-agent/sessions'),
      billingFile: '/var/tmp/ledger.jsonl',
    });
  });

  test('persistence.billingFile wins over the older accounting.file; sessions stays the session store', () => {
    const { root, config } = configOf({
      ...PROVIDERS,
      sessions: { store: 'sqlite', path: './mine.sqlite' },
      accounting: { file: './old.jsonl' },
      persistence: { sessionsDir: './records', billingFile: './ledger.jsonl' },
    });
    expect(config.sessions?.value.path).toBe(join(root, 'mine.sqlite'));
    expect(config.persistence?.value).toEqual({
      sessionsDir: join(root, 'records'),
      billingFile: join(root, 'ledger.jsonl'),
    });
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
  test('accounting.file is the billing ledger (persistence.billingFile), relative to the config file', () => {
    const { root, config } = configOf({ ...PROVIDERS, accounting: { file: './bills.jsonl' } });
    expect(config.persistence?.value).toEqual({ billingFile: join(root, 'bills.jsonl') });
  });

  test('an unknown key is an error naming the allowed one', async () => {
    const bad = tempTree({
      '.ai-agent.json': { ...PROVIDERS, accounting: { fiel: 'x' } },
      'a.ai': agentFile('models: [p/m]'),
    });
    const { problems } = await validateAgentFile('a.ai', isolated(bad));
    expect(problems[0]?.message).toContain('unknown key `fiel` in `accounting`; did you mean `file`?');
  });
});

describe('agent.json: persistence', () => {
  test('sessionsDir and billingFile, relative to the file; configuredSessionsDir finds the directory', () => {
    const root = tempTree({
      'agent.json': { ...PROVIDERS, persistence: { sessionsDir: 'records', billingFile: '/tmp/x.jsonl' } },
    });
    const config = resolveConfig(isolated(root));
    expect(config.persistence?.value).toEqual({
      sessionsDir: join(root, 'records'),
      billingFile: '/tmp/x.jsonl',
    });
    expect(configuredSessionsDir(isolated(root))).toBe(join(root, 'records'));
    expect(configuredSessionsDir(isolated(tempTree({ 'agent.json': PROVIDERS })))).toBeUndefined();
  });

  test('accounting is no longer a section of agent.json; an unknown persistence key is an error', async () => {
    const old = tempTree({
      'agent.json': { ...PROVIDERS, accounting: { file: 'x.jsonl' } },
      'a.ai': agentFile('models: [p/m]'),
    });
    const first = await validateAgentFile('a.ai', isolated(old));
    expect(first.ok).toBe(false);
    expect(first.problems.map((p) => p.message).join('\n')).toContain('accounting');
    const bad = tempTree({
      'agent.json': { ...PROVIDERS, persistence: { sessionDir: 'x' } },
      'a.ai': agentFile('models: [p/m]'),
    });
    const second = await validateAgentFile('a.ai', isolated(bad));
    expect(second.problems.map((p) => p.message).join('\n')).toContain('sessionDir');
  });
});
