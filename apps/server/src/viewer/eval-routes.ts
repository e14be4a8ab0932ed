import type { ServerResponse } from 'node:http';
import type { Principal } from '@agent/headends';
import { errorMessage } from '@agent/protocol/util';
import type { EvalRunSource } from './eval-source.js';
import { json, type Replied } from './http-reply.js';

/**
 * `GET /api/evals` (the runs, newest first) and `GET /api/evals/<runId>` (one run's results):
 * for operator tokens only, as the cases' records have no owner.
 */
export async function evalRoute(
  response: ServerResponse,
  pathname: string,
  evals: EvalRunSource | undefined,
  principal: Principal,
): Promise<Replied> {
  if (!principal.operator)
    return json(response, 403, { error: 'eval runs are shown to operator tokens only (--operator-token)' });
  if (evals === undefined)
    return json(response, 404, {
      error: 'no eval runs here: start agent-server with --evals <dir> (the --out directory of agent eval)',
    });
  if (pathname === '/api/evals') {
    try {
      return json(response, 200, { dir: evals.dir, runs: await evals.list() });
    } catch (error) {
      return json(response, 404, {
        error: `the evals directory ${evals.dir} cannot be read (${errorMessage(error)}): it is the --out directory of agent eval`,
      });
    }
  }
  let runId: string;
  try {
    runId = decodeURIComponent(pathname.slice('/api/evals/'.length));
  } catch {
    runId = pathname.slice('/api/evals/'.length);
  }
  const read = await evals.get(runId);
  return read.ok ? json(response, 200, read.run) : json(response, read.status, { error: read.error });
}
