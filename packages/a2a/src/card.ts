import type { AgentCard } from '@a2a-js/sdk';
import {
  type Client,
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
} from '@a2a-js/sdk/client';
import { errorMessage } from '@agent/protocol/util';
import { A2aError } from './errors.js';
import type { A2aCardSummary } from './types.js';

const LEGACY = { legacyCompat: { enabled: true } } as const;

/** The connected agent: the SDK client and what its card said. */
export interface ConnectedAgent {
  client: Client;
  card: A2aCardSummary;
}

/**
 * Reads the agent card (v1.0, or v0.3 translated by the SDK) and makes a JSON-RPC client for it.
 * The card's request gets `cardFetch` (bounded by the connect timeout); calls get `callFetch`.
 * Errors name the card's URL and never the headers.
 */
export async function connectAgent(
  cardUrl: string,
  cardFetch: typeof fetch,
  callFetch: typeof fetch,
): Promise<ConnectedAgent> {
  let card: AgentCard;
  try {
    card = await new DefaultAgentCardResolver({ fetchImpl: cardFetch, ...LEGACY }).resolve(cardUrl, '');
  } catch (error) {
    throw new A2aError(`cannot read the A2A agent card at ${cardUrl}: ${errorMessage(error)}`, {
      cause: error,
    });
  }
  const summary = cardSummary(cardUrl, card);
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl: callFetch, ...LEGACY })],
    }),
  );
  try {
    return { client: await factory.createFromAgentCard(card), card: summary };
  } catch (error) {
    throw new A2aError(`the A2A agent card at ${cardUrl} cannot be used: ${errorMessage(error)}`, {
      cause: error,
    });
  }
}

function cardSummary(cardUrl: string, card: AgentCard): A2aCardSummary {
  const problem = cardProblem(card);
  if (problem !== undefined) throw new A2aError(`the A2A agent card at ${cardUrl} is malformed: ${problem}`);
  const endpoint = card.supportedInterfaces.find((i) => i.protocolBinding === 'JSONRPC');
  if (endpoint === undefined) {
    const offered = card.supportedInterfaces.map((i) => i.protocolBinding).join(', ') || 'none';
    throw new A2aError(
      `the A2A agent at ${cardUrl} offers no JSON-RPC interface (offered: ${offered}); only JSON-RPC is supported`,
    );
  }
  return {
    name: card.name,
    description: card.description ?? '',
    url: endpoint.url,
    protocolVersion: endpoint.protocolVersion || '1.0',
    streaming: card.capabilities?.streaming === true,
    skills: (card.skills ?? []).map((s) => ({
      id: s.id,
      name: s.name ?? s.id,
      description: s.description ?? '',
    })),
  };
}

/** What makes a card unusable, checked before anything reads it. */
function cardProblem(card: unknown): string | undefined {
  if (typeof card !== 'object' || card === null || Array.isArray(card)) return 'it is not a JSON object';
  const c = card as Partial<AgentCard>;
  if (typeof c.name !== 'string' || c.name === '') return '"name" must be a non-empty string';
  if (!Array.isArray(c.supportedInterfaces) || c.supportedInterfaces.length === 0)
    return '"supportedInterfaces" (v1.0) or "url" (v0.3) must name the agent\'s endpoint';
  if (c.skills !== undefined && !Array.isArray(c.skills)) return '"skills" must be an array';
  for (const [i, skill] of (c.skills ?? []).entries()) {
    if (typeof skill?.id !== 'string' || skill.id === '') return `skills[${i}].id must be a non-empty string`;
  }
  return undefined;
}
