import { spawn } from 'node:child_process';

/**
 * Runs `file` again in a fresh process (with the parent's flags and `--expose-gc`) and resolves
 * with the JSON object it prints last on stdout; `label` names it when it fails.
 */
export function spawnJsonChild<T>(file: string, args: readonly string[], label: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, '--expose-gc', file, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      const line = out.trim().split('\n').at(-1) ?? '';
      if (code !== 0 || !line.startsWith('{')) {
        reject(new Error(`${label} child failed (exit ${code}): ${err.slice(-2000)}`));
        return;
      }
      resolve(JSON.parse(line) as T);
    });
  });
}
