/** Where the prompt comes from: the argument, or stdin when it is `-` or absent and stdin is piped. */
export type PromptSource = { kind: 'argument'; text: string } | { kind: 'stdin' } | { kind: 'missing' };

export function promptSource(argument: string | undefined, stdinIsTty: boolean): PromptSource {
  if (argument !== undefined && argument !== '-') return { kind: 'argument', text: argument };
  if (argument === '-' || !stdinIsTty) return { kind: 'stdin' };
  return { kind: 'missing' };
}

/** Reads a stream to its end as UTF-8. */
export async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** The prompt text from stdin, without the trailing newline(s) `echo` adds. */
export async function readPromptFromStdin(stream: NodeJS.ReadableStream = process.stdin): Promise<string> {
  return (await readAll(stream)).replace(/\s+$/, '');
}
