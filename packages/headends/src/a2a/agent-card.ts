import type { AgentCard, AgentSkill } from '@a2a-js/sdk';
import type { AgentInfo } from '../agent-catalog.js';
import { formatMediaType } from './a2a-parts.js';

/** What a card says beside the agent itself: where it is reached and how it is authenticated. */
export interface CardSettings {
  /** The face's base URL (`publicUrl`, or the origin the card was read from), without a trailing slash. */
  baseUrl: string;
  /** False when the face was built with `allowNoAuth`: the card names no security scheme. */
  authRequired: boolean;
  legacy: boolean;
  provider?: { organization: string; url: string };
}

/** The card's version of our agents (the A2A `version` field names the agent's, not the protocol's). */
const CARD_VERSION = '1.0.0';

/** Longest example taken from an agent file's `usage`. */
const MAX_EXAMPLE_CHARS = 500;

function inputModes(info: AgentInfo): string[] {
  return info.inputSchema === undefined ? ['text/plain'] : ['application/json', 'text/plain'];
}

function skillOf(info: AgentInfo): AgentSkill {
  const usage = info.usage?.trim();
  return {
    id: info.name,
    name: info.name,
    description: info.description ?? `The ${info.name} agent.`,
    tags: ['agent'],
    examples: usage === undefined || usage === '' ? [] : [usage.slice(0, MAX_EXAMPLE_CHARS)],
    inputModes: inputModes(info),
    outputModes: [formatMediaType(info.outputFormat)],
    securityRequirements: [],
  };
}

/** The A2A card of one served agent: one skill, its formats' media types, bearer auth, both JSON-RPC versions. */
export function agentCard(info: AgentInfo, settings: CardSettings): AgentCard {
  const url = `${settings.baseUrl}/a2a/${encodeURIComponent(info.name)}`;
  const jsonRpc = (protocolVersion: string) => ({
    url,
    protocolBinding: 'JSONRPC',
    tenant: '',
    protocolVersion,
  });
  return {
    name: info.name,
    description: info.description ?? `The ${info.name} agent.`,
    supportedInterfaces: settings.legacy ? [jsonRpc('1.0'), jsonRpc('0.3')] : [jsonRpc('1.0')],
    provider: settings.provider,
    version: CARD_VERSION,
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: settings.authRequired
      ? {
          bearer: {
            scheme: {
              $case: 'httpAuthSecurityScheme',
              value: { description: "A token of the server's", scheme: 'Bearer', bearerFormat: '' },
            },
          },
        }
      : {},
    securityRequirements: settings.authRequired ? [{ schemes: { bearer: { list: [] } } }] : [],
    defaultInputModes: inputModes(info),
    defaultOutputModes: [formatMediaType(info.outputFormat)],
    skills: [skillOf(info)],
    signatures: [],
  };
}
