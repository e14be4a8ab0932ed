// The provider SDKs and the tokenizer are optional peers: each loads only for a client that
// needs it, and a missing one is a clear configuration error (SDKs) or the heuristic (tokenizer).
// "Missing" is real: peers are resolved from an empty project in a temp dir.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ConfigError } from '@agent/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createModelClient, type ModelClientConfig } from '../src/index.js';
import { setPeerRequire } from '../src/peers.js';

const require = createRequire(import.meta.url);
const loaded = (name: string) =>
  Object.keys(require.cache).some((path) => path.includes(`/node_modules/${name}/`));

// pnpm's bin shim sets NODE_PATH to its whole store, where every package resolves; a user's
// project has no such path. Cleared (and node's global paths re-read) for these tests.
const { NODE_PATH } = process.env;
const initPaths = (Module as unknown as { _initPaths(): void })._initPaths;
beforeAll(() => {
  delete process.env.NODE_PATH;
  initPaths();
});
afterAll(() => {
  if (NODE_PATH !== undefined) process.env.NODE_PATH = NODE_PATH;
  initPaths();
});

const emptyProject = mkdtempSync(join(tmpdir(), 'providers-no-peers-'));
writeFileSync(join(emptyProject, 'package.json'), '{"name":"no-peers","private":true}');
afterAll(() => rmSync(emptyProject, { recursive: true, force: true }));

const openai: ModelClientConfig = { type: 'openai', provider: 'openai', model: 'gpt-4.1-mini', apiKey: 'k' };
const anthropic: ModelClientConfig = {
  type: 'anthropic',
  provider: 'anthropic',
  model: 'claude-haiku-4-5',
  apiKey: 'k',
};

describe('optional peers', () => {
  let restore: NodeJS.Require | undefined;
  afterEach(() => {
    if (restore) setPeerRequire(restore);
    restore = undefined;
  });

  it("an OpenAI client loads the openai SDK only, not Anthropic's", () => {
    expect(loaded('openai')).toBe(false);
    createModelClient(openai);
    expect(loaded('openai')).toBe(true);
    expect(loaded('@anthropic-ai/sdk')).toBe(false);
    createModelClient(anthropic);
    expect(loaded('@anthropic-ai/sdk')).toBe(true);
  });

  it('a client whose SDK is not installed is a configuration error naming the package to install', () => {
    restore = setPeerRequire(createRequire(join(emptyProject, 'package.json')));
    for (const [config, name] of [
      [openai, 'openai'],
      [{ ...openai, type: 'openai-responses' }, 'openai'],
      [{ ...openai, type: 'openai-compatible', baseURL: 'http://127.0.0.1:1/v1' }, 'openai'],
      [anthropic, '@anthropic-ai/sdk'],
    ] as const) {
      let error: unknown;
      try {
        createModelClient(config);
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toContain(`the ${name} package is not installed`);
      expect((error as Error).message).toContain(`npm install ${name}`);
    }
  });

  it('without gpt-tokenizer, OpenAI models have no exact counter (callers use their heuristic)', () => {
    // A project with the openai SDK (linked from this one's) and no tokenizer.
    const project = mkdtempSync(join(tmpdir(), 'providers-openai-only-'));
    try {
      writeFileSync(join(project, 'package.json'), '{"name":"openai-only","private":true}');
      mkdirSync(join(project, 'node_modules'));
      symlinkSync(dirname(require.resolve('openai')), join(project, 'node_modules', 'openai'));
      restore = setPeerRequire(createRequire(join(project, 'package.json')));
      const client = createModelClient(openai);
      expect(client.countTokens).toBeUndefined();
      expect(createModelClient({ ...openai, tokenizer: 'openai' }).countTokens).toBeUndefined();
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
    setPeerRequire(restore);
    restore = undefined;
    expect(typeof createModelClient(openai).countTokens).toBe('function');
  });
});
