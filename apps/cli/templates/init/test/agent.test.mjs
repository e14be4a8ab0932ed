// Runs agent.ai through the `agent` command against a scripted model: the testkit's model
// server, on loopback, answers in place of OpenAI. No API key is needed and nothing leaves
// this machine. Change the script and the assertions as your agent grows.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { finalReport, startModelServer } from '@agent/testkit';

const run = promisify(execFile);
const projectDir = fileURLToPath(new URL('..', import.meta.url));
const agentBin = join(projectDir, 'node_modules', '.bin', 'agent');

const PROMPT = 'What is a context window?';
const REPORT = 'A context window is how much text a model can read at once.';

test('agent.ai answers with its final report', { timeout: 60_000 }, async (t) => {
  // The script: one model answer, the final report. finalReport() writes the tag the agent
  // expects, with the session's nonce filled in by the server.
  const server = await startModelServer({ steps: [finalReport(REPORT)] });
  const scratch = await mkdtemp(join(tmpdir(), 'agent-test-'));
  t.after(async () => {
    await server.close();
    await rm(scratch, { recursive: true, force: true });
  });
  // A config layer above agent.json: the `openai` provider now points at the scripted server.
  const config = join(scratch, 'agent.json');
  const provider = { type: 'openai', baseURL: `${server.url}/v1`, apiKey: 'scripted-model-needs-no-key' };
  await writeFile(config, JSON.stringify({ providers: { openai: provider } }));
  // Your own config (~/.config/agent) and state stay out of the test.
  const home = { HOME: scratch, XDG_CONFIG_HOME: scratch, XDG_STATE_HOME: scratch, XDG_CACHE_HOME: scratch };

  const { stdout } = await run(agentBin, ['run', 'agent.ai', PROMPT, '--config', config], {
    cwd: projectDir,
    env: { ...process.env, ...home },
    timeout: 50_000,
  });

  assert.equal(stdout.trim(), REPORT);
  const [request] = server.requests;
  assert.ok(
    request.messages.some(
      (message) => message.role === 'user' && JSON.stringify(message.content).includes(PROMPT),
    ),
    'the model was asked the prompt',
  );
  server.assertAllConsumed();
});
