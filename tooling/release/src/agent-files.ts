// The files a new user writes next to an installed CLI or server: an agent file that runs
// through its `#!/usr/bin/env agent` line, the agent.json naming the model server, and the
// model server's script.
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { finalReport, type ScriptedAnswer } from '@agent/testkit';

/** The variable agent.json reads the model server's base URL from. */
export const MODEL_URL_ENV = 'MODEL_URL';
export const HELLO_ANSWER = 'Hello from an installed agent.';

/** Writes `hello.ai` (executable), `agent.json` and `script.json` in `dir`. */
export function writeHelloAgent(dir: string): { agentFile: string; script: string } {
  const agentFile = join(dir, 'hello.ai');
  writeFileSync(
    agentFile,
    [
      '#!/usr/bin/env agent',
      '---',
      'models: [scripted/model]',
      '---',
      'You answer in one sentence.',
      '',
    ].join('\n'),
  );
  chmodSync(agentFile, 0o755);
  writeFileSync(
    join(dir, 'agent.json'),
    JSON.stringify({
      providers: {
        scripted: {
          type: 'openai-compatible',
          baseURL: `\${${MODEL_URL_ENV}}`,
          models: { model: { contextWindow: 32768 } },
        },
      },
    }),
  );
  return { agentFile, script: writeScript(dir, [finalReport(HELLO_ANSWER)]) };
}

/** An `agent-testkit-server --script` file answering `steps` in order. */
export function writeScript(dir: string, steps: ScriptedAnswer[]): string {
  const file = join(dir, 'script.json');
  writeFileSync(file, JSON.stringify({ steps }));
  return file;
}

/** The report `agent demo` prints: the JSON in the FINAL tag of the demo script's last step. */
export function demoReport(repo: string): unknown {
  const script = JSON.parse(readFileSync(join(repo, 'examples', 'demo', 'script.json'), 'utf8')) as {
    steps: { text?: string }[];
  };
  const last = script.steps.at(-1)?.text ?? '';
  const json = /-FINAL [^>]*>([\s\S]*)<\/ai-agent-/.exec(last)?.[1];
  if (json === undefined) throw new Error('the demo script does not end with a FINAL report');
  return JSON.parse(json);
}
