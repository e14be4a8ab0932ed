/** The terminal streams a command writes to; process streams by default, fakes in tests. */
export interface OutStream {
  write(text: string, callback?: (error?: Error | null) => void): boolean;
  isTTY?: boolean;
  columns?: number;
}

export interface CliIo {
  stdout: OutStream;
  stderr: OutStream;
  env: NodeJS.ProcessEnv;
}

export function processIo(): CliIo {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env };
}

/** Writes and waits until the stream has taken the data (so nothing is lost at exit). */
export function writeAndFlush(stream: OutStream, text: string): Promise<void> {
  if (text.length === 0) return Promise.resolve();
  return new Promise((resolve) => {
    stream.write(text, () => resolve());
  });
}
