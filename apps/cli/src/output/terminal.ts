/** What a stream can show: a TTY gets a status line; ANSI only on a TTY without `NO_COLOR` or `TERM=dumb`. */
export interface TerminalCaps {
  isTty: boolean;
  ansi: boolean;
  columns: number;
}

export interface StreamLike {
  isTTY?: boolean;
  columns?: number;
}

/** https://no-color.org: set and not empty. */
export function noColorRequested(env: NodeJS.ProcessEnv): boolean {
  const value = env.NO_COLOR;
  return value !== undefined && value !== '';
}

export function terminalCaps(stream: StreamLike, env: NodeJS.ProcessEnv = process.env): TerminalCaps {
  const isTty = stream.isTTY === true;
  return {
    isTty,
    ansi: isTty && !noColorRequested(env) && env.TERM !== 'dumb',
    columns: typeof stream.columns === 'number' && stream.columns > 0 ? stream.columns : 80,
  };
}
