import { ServerCallContext, type User } from '@a2a-js/sdk/server';
import type { SessionTicket } from '../admission.js';
import type { Principal } from '../principal.js';

/** What the face hands the SDK with each call: who asks, and the admission ticket of a send. */
interface CallState {
  principal: Principal;
  /** Admitted before the SDK ran: the executor takes it for the run it starts. */
  ticket?: SessionTicket;
  /** The request's W3C `traceparent`, passed to the run. */
  traceparent?: string;
}

const STATE_KEY = 'agent.a2a.call';

class PrincipalUser implements User {
  constructor(private readonly principal: Principal) {}
  get isAuthenticated(): boolean {
    return true;
  }
  get userName(): string {
    return this.principal.id;
  }
}

/** The SDK's call context for a request of `principal`. */
export function callContext(state: CallState, requestedVersion: string): ServerCallContext {
  const context = new ServerCallContext({
    user: new PrincipalUser(state.principal),
    requestedVersion,
    state: new Map([[STATE_KEY, state]]),
  });
  return context;
}

/** The call's state (a context the face did not build is a bug: fail closed, owning nothing). */
export function callState(context: ServerCallContext): CallState {
  const state = context.state.get(STATE_KEY) as CallState | undefined;
  return state ?? { principal: { id: 'none', operator: false } };
}

/** Takes the call's admission ticket for a run (once: the route releases a ticket nobody took). */
export function takeTicket(context: ServerCallContext): SessionTicket | undefined {
  const state = callState(context);
  const ticket = state.ticket;
  state.ticket = undefined;
  return ticket;
}
