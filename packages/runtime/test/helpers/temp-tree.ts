import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach } from 'vitest';

const made: string[] = [];

afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A temporary directory holding `files` (path -> text; objects are written as JSON). Removed after the test. */
export function tempTree(files: Record<string, string | object> = {}): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'runtime-test-')));
  made.push(root);
  writeTree(root, files);
  return root;
}

export function writeTree(root: string, files: Record<string, string | object>): void {
  for (const [path, content] of Object.entries(files)) {
    const full = join(root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  }
}

/** Options that keep a test away from the real user and system config dirs. */
export function isolated(root: string, extra: { env?: Record<string, string | undefined> } = {}) {
  return {
    cwd: root,
    env: extra.env ?? {},
    userConfigDir: join(root, '.no-user-config'),
    systemConfigDir: join(root, '.no-system-config'),
    aiAgentHomeDir: join(root, '.no-home'),
    aiAgentSystemDir: join(root, '.no-ai-agent-system'),
  };
}

/** An agent file: frontmatter lines and a body. */
export function agentFile(frontmatter: string, body = 'You are a test agent.'): string {
  return `---\n${frontmatter.trim()}\n---\n${body}\n`;
}

/** A config with one openai-compatible provider `local` (never contacted unless a test says so). */
export function localConfig(extra: object = {}, baseURL = 'http://127.0.0.1:9/v1'): object {
  return { providers: { local: { type: 'openai-compatible', baseURL } }, ...extra };
}
