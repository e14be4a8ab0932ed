import type { Context, Hono } from 'hono';
import type { Admission } from '../admission.js';
import { admit } from '../admit.js';
import type { AgentCatalog } from '../agent-catalog.js';
import { type ErrorResponder, httpError, readJsonObject } from '../http-guards.js';
import { requestPrincipal, sessionOwner } from '../principal.js';
import { answerRun, type RestStreamOptions } from '../rest-answer.js';
import { checkDecisions } from './decisions.js';
import { claimSession, findSession } from './find-session.js';
import { sessionView } from './session-view.js';

interface SessionRouteOptions {
  catalog: AgentCatalog;
  admission: Admission;
  headendId: string;
  respond: ErrorResponder;
  /** What a resumed session's SSE stream forwards (`RestHeadendOptions.assistantText`). */
  stream: RestStreamOptions;
}

/**
 * `GET /v1/sessions/:id`: a stored session's status, the calls it waits for, its report when
 * finished and its usage. `POST /v1/sessions/:id/approvals` with `{ "decisions": { callId:
 * { approved, reason? } } }`: checks each names a pending call, then resumes the session from
 * the store and answers like a run (SSE when asked).
 */
export function installSessionRoutes(app: Hono, options: SessionRouteOptions): void {
  const { catalog, respond } = options;

  app.get('/v1/sessions/:id', async (c) => {
    const found = await findSession(catalog, c.req.param('id'), requestPrincipal(c));
    if (found.kind !== 'found') return httpError(c, respond, found.kind, found.message);
    return c.json(sessionView(found.snapshot, found.agent.info.name));
  });

  app.post('/v1/sessions/:id/approvals', (c) => decideSession(c, options));
}

/** `POST /v1/sessions/:id/approvals`: the decisions checked, then the session resumed as a run. */
async function decideSession(c: Context, options: SessionRouteOptions): Promise<Response> {
  const { catalog, admission, headendId, respond } = options;
  const sessionId = c.req.param('id') ?? '';
  const read = await readJsonObject(c, respond);
  if (!read.ok) return read.response;
  const extra = Object.keys(read.body).filter((key) => key !== 'decisions');
  if (extra.length > 0) {
    return httpError(
      c,
      respond,
      'bad_request',
      `unknown key ${JSON.stringify(extra[0])} (allowed: decisions)`,
    );
  }
  const principal = requestPrincipal(c);
  // Claimed before the session is read, so a second request sees what the first one left.
  const claim = claimSession(catalog, sessionId);
  if (claim === undefined) {
    // Only its owner (or an operator) learns that a session is being resumed.
    const seen = await findSession(catalog, sessionId, principal);
    if (seen.kind !== 'found') return httpError(c, respond, seen.kind, seen.message);
    return httpError(
      c,
      respond,
      'conflict',
      `session ${JSON.stringify(sessionId)} is being resumed by another request`,
    );
  }
  const found = await findSession(catalog, sessionId, principal);
  const checked = found.kind === 'found' ? checkDecisions(found.snapshot, read.body.decisions) : undefined;
  const admitted = checked?.ok === true ? await admit(c, admission, respond) : undefined;
  if (found.kind !== 'found' || checked?.ok !== true || admitted?.ok !== true) {
    claim.release();
    if (found.kind !== 'found') return httpError(c, respond, found.kind, found.message);
    if (checked !== undefined && !checked.ok) return httpError(c, respond, checked.kind, checked.message);
    return (admitted as { response: Response }).response;
  }
  const { agent } = found;
  const owner = sessionOwner(found.snapshot);
  const resumeOptions = {
    headendId,
    signal: admitted.ticket.signal,
    approvals: checked.decisions,
    ...(owner === undefined ? {} : { owner }),
  };
  // answerRun always calls the start (at once, or as the SSE stream opens): it ends the claim.
  return answerRun(
    c,
    admitted.ticket,
    respond,
    async (onEvent) => {
      try {
        return await agent.sessions!.resume(
          sessionId,
          onEvent === undefined ? resumeOptions : { ...resumeOptions, onEvent },
        );
      } finally {
        claim.release();
      }
    },
    options.stream,
  );
}
