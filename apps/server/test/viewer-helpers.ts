import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type ModelServer,
  type RecordedRequest,
  type ScriptedAnswer,
  startModelServer,
} from '@agent/testkit';
import { chromiumPath } from '../../../tooling/test-setup/src/requirements.mjs';

/** Debian's chromium (or CHROMIUM_PATH), which the browser tests drive (`requires('chromium')`). */
export const CHROMIUM = chromiumPath();

/** Where the browser tests keep their screenshots (gitignored `test-results/`). */
export const ARTIFACTS = fileURLToPath(new URL('../test-results/viewer/', import.meta.url));

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface ViewerAgents {
  dir: string;
  model: ModelServer;
  /** lead.ai (with helper.ai as its sub-agent) and helper.ai, both served. */
  files: string[];
  close(): Promise<void>;
}

/** A temp dir with agent.json on a scripted model server, a lead agent and its helper sub-agent. */
export async function viewerAgents(
  answer: (request: RecordedRequest) => ScriptedAnswer | Promise<ScriptedAnswer>,
): Promise<ViewerAgents> {
  const model = await startModelServer({ handler: answer });
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'agent-viewer-test-')));
  writeFileSync(
    join(dir, 'agent.json'),
    JSON.stringify({ providers: { local: { type: 'openai-compatible', baseURL: `${model.url}/v1` } } }),
  );
  writeFileSync(
    join(dir, 'helper.ai'),
    '---\ndescription: The helper agent.\nmodels: [local/small]\n---\nYou are helper.\n',
  );
  writeFileSync(
    join(dir, 'lead.ai'),
    '---\ndescription: The lead agent.\nmodels: [local/big]\nagents: [./helper.ai]\n---\nYou are lead.\n',
  );
  mkdirSync(ARTIFACTS, { recursive: true });
  return {
    dir,
    model,
    files: [join(dir, 'lead.ai'), join(dir, 'helper.ai')],
    close: async () => {
      await model.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Runs `agent` over the REST face; resolves with the response body. */
export async function restRun(
  api: string,
  agent: string,
  prompt: string,
  extra: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  const response = await fetch(`${api}/${agent}/run`, {
    method: 'POST',
    headers: { authorization: 'Bearer tok', 'content-type': 'application/json' },
    body: JSON.stringify({ prompt, ...extra }),
  });
  return (await response.json()) as Record<string, unknown>;
}

/** The first user message of a request: the run's prompt (later ones are the session's notices). */
export function promptOf(request: RecordedRequest): string {
  return request.messages.find((m) => m.role === 'user')?.content ?? '';
}
