// A client session of the queue soak: one run through the face over REST, its report checked.
export interface SessionOutcome {
  session: string;
  streaming: boolean;
  ok: boolean;
  moved: boolean;
  startedAt: number;
  endedAt: number;
  problem?: string;
}

/** One client session over REST, streaming (SSE) or not; ok when its report names it. */
export async function runSession(face: string, session: string, streaming: boolean): Promise<SessionOutcome> {
  const startedAt = Date.now();
  try {
    const response = await fetch(`${face}/soak/run`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(streaming ? { accept: 'text/event-stream' } : {}) },
      body: JSON.stringify({ prompt: `${session}: work through your turns` }),
    });
    const body = await response.text();
    let report: string | undefined;
    let moved = false;
    if (streaming) {
      moved = body.includes('session moved to worker');
      const result = /event: result\ndata: (.*)/.exec(body)?.[1];
      report =
        result === undefined
          ? undefined
          : (JSON.parse(result) as { finalReport?: { content?: string } }).finalReport?.content;
    } else {
      report = (JSON.parse(body) as { finalReport?: { content?: string } }).finalReport?.content;
    }
    const ok = response.status === 200 && report === `done ${session}`;
    return {
      session,
      streaming,
      ok,
      moved,
      startedAt,
      endedAt: Date.now(),
      ...(ok ? {} : { problem: `HTTP ${response.status}: ${body.slice(0, 300)}` }),
    };
  } catch (error) {
    return {
      session,
      streaming,
      ok: false,
      moved: false,
      startedAt,
      endedAt: Date.now(),
      problem: String(error),
    };
  }
}

/** `sessions` client sessions (`soak-<prefix><n>`, every other one streaming) run by `clients` clients at once. */
export async function runLoad(
  face: string,
  prefix: string,
  sessions: number,
  clients: number,
): Promise<SessionOutcome[]> {
  const outcomes: SessionOutcome[] = [];
  let next = 0;
  const client = async () => {
    while (next < sessions) {
      const at = next++;
      outcomes.push(await runSession(face, `soak-${prefix}${at}`, at % 2 === 0));
    }
  };
  await Promise.all(Array.from({ length: clients }, client));
  return outcomes;
}
