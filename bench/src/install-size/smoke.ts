// Checks of the installed packages as a user meets them: the SDKs are optional peers, a missing
// one is named in the error, and the tokenizer counts only where it was installed.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { BenchCheck } from '../harness/types.js';
import type { readManifest } from './install.js';

const run = promisify(execFile);

/** The manifest lists `peers` as optional peer dependencies and none of them as a dependency. */
export function usesOnlyItsPeers(
  manifest: ReturnType<typeof readManifest>,
  peers: readonly string[],
): BenchCheck {
  const wrong = peers.filter(
    (name) =>
      manifest.dependencies?.[name] !== undefined ||
      manifest.peerDependencies?.[name] === undefined ||
      manifest.peerDependenciesMeta?.[name]?.optional !== true,
  );
  return {
    name: `${manifest.name} has ${peers.join(', ')} as optional peers only`,
    ok: wrong.length === 0,
    ...(wrong.length === 0 ? {} : { detail: `not optional peers: ${wrong.join(', ')}` }),
  };
}

const SCRIPT = `
import { createModelClient } from '@agent/providers';
const openai = createModelClient({ type: 'openai', provider: 'openai', model: 'gpt-4o-mini', apiKey: 'k' });
let anthropic = 'created';
try {
  createModelClient({ type: 'anthropic', provider: 'anthropic', model: 'claude-haiku-4-5', apiKey: 'k' });
} catch (error) {
  anthropic = error.message;
}
console.log(JSON.stringify({ tokens: openai.countTokens ? openai.countTokens('hello world') : null, anthropic }));
`;

async function probe(project: string): Promise<{ tokens: number | null; anthropic: string }> {
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', SCRIPT], {
    cwd: project,
    timeout: 30_000,
  });
  return JSON.parse(stdout) as { tokens: number | null; anthropic: string };
}

/** In the installed projects: with `openai` only, and with `openai` + `gpt-tokenizer`. */
export async function peerChecks(withOpenai: string, withTokenizer: string): Promise<BenchCheck[]> {
  const bare = await probe(withOpenai);
  const counted = await probe(withTokenizer);
  return [
    {
      name: 'installed: an OpenAI client works with openai alone; an Anthropic one names the SDK to install',
      ok: bare.anthropic.includes('npm install @anthropic-ai/sdk'),
      detail: bare.anthropic,
    },
    {
      name: 'installed: OpenAI token counts are exact with gpt-tokenizer, absent (heuristic) without',
      ok: bare.tokens === null && counted.tokens === 2,
      detail: `without: ${bare.tokens}, with: ${counted.tokens}`,
    },
  ];
}
