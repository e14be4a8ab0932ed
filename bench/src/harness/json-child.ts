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

/**
 * The child side of `spawnJsonChild`: when this process was started with `flag`, runs `run`
 * with the number after the flag, prints its report as one JSON line and exits (1 on failure).
 */
export function serveJsonChild(flag: string, run: (value: number) => Promise<unknown>): void {
  const at = process.argv.indexOf(flag);
  if (at === -1) return;
  run(Number(process.argv[at + 1])).then(
    (report) => {
      process.stdout.write(`${JSON.stringify(report)}\n`);
      process.exit(0);
    },
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
