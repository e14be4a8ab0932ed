import { ConfigError } from '@agent/protocol';
import type { AgentCatalog } from '../agent-catalog.js';

/** How the bot was engaged: an @-mention, a direct message, a plain channel post, a slash command. */
export type SlackEngagement = 'mentions' | 'dms' | 'channel-posts' | 'commands';

export const SLACK_ENGAGEMENTS: readonly SlackEngagement[] = ['mentions', 'dms', 'channel-posts', 'commands'];

/**
 * One routing rule. `channels` are names (`#general` or `general`), IDs (`C0123`) or globs
 * (`eng-*`); none means every channel. `engage` defaults to mentions, DMs and commands. A rule
 * with `deny: true` refuses what it matches; else `agent` names the agent that answers.
 */
export interface SlackRoute {
  channels?: readonly string[];
  engage?: readonly SlackEngagement[];
  agent?: string;
  deny?: boolean;
}

/** Where a message came from, as far as routing cares. */
export interface SlackPlace {
  channelId: string;
  /** Without `#`; undefined when it could not be looked up (and for DMs). */
  channelName: string | undefined;
  engagement: SlackEngagement;
}

/** What routing decided: run an agent, refuse, or say nothing (no rule and no default). */
export type SlackRouteDecision = { agent: string } | { denied: true } | { ignored: true };

const DEFAULT_ENGAGE: readonly SlackEngagement[] = ['mentions', 'dms', 'commands'];

function globPattern(glob: string): RegExp {
  const escaped = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${escaped}$`, 'i');
}

interface CompiledRoute {
  channels: RegExp[] | undefined;
  engage: ReadonlySet<SlackEngagement>;
  decision: SlackRouteDecision;
}

/** Compiled routing rules; checks agents and engagements once, at start. */
export class SlackRouter {
  private readonly routes: CompiledRoute[];
  private readonly fallback: string | undefined;

  constructor(routes: readonly SlackRoute[], defaultAgent: string | undefined, catalog: AgentCatalog) {
    const known = catalog.list().map((info) => info.name);
    const checkAgent = (name: string, field: string) => {
      if (!known.includes(name)) {
        throw new ConfigError({
          field,
          value: name,
          allowed: `one of the served agents (${known.join(', ') || 'none'})`,
          message: `slack headend: ${field} names "${name}", which is not a served agent (known: ${known.join(', ') || 'none'})`,
        });
      }
    };
    this.routes = routes.map((route, index) => {
      const field = `slack.routes[${index}]`;
      for (const engagement of route.engage ?? []) {
        if (!SLACK_ENGAGEMENTS.includes(engagement)) {
          throw new ConfigError({
            field: `${field}.engage`,
            value: engagement,
            allowed: `some of ${SLACK_ENGAGEMENTS.join(', ')}`,
            message: `slack headend: ${field}.engage has "${engagement}"; allowed: ${SLACK_ENGAGEMENTS.join(', ')}`,
          });
        }
      }
      if (route.deny !== true) {
        if (route.agent === undefined) {
          throw new ConfigError({
            field: `${field}.agent`,
            allowed: 'an agent name, or deny: true',
            message: `slack headend: ${field} needs an agent (or deny: true)`,
          });
        }
        checkAgent(route.agent, `${field}.agent`);
      }
      return {
        channels: route.channels?.map((channel) => globPattern(channel.replace(/^#/, ''))),
        engage: new Set(route.engage ?? DEFAULT_ENGAGE),
        decision: route.deny === true ? { denied: true } : { agent: route.agent as string },
      };
    });
    if (defaultAgent !== undefined) checkAgent(defaultAgent, 'slack.defaultAgent');
    this.fallback = defaultAgent;
  }

  /** The first rule matching the place decides; else the default agent for mentions, DMs and commands. */
  route(place: SlackPlace): SlackRouteDecision {
    for (const route of this.routes) {
      if (!route.engage.has(place.engagement)) continue;
      if (route.channels !== undefined && !route.channels.some((pattern) => matches(pattern, place)))
        continue;
      return route.decision;
    }
    if (this.fallback !== undefined && DEFAULT_ENGAGE.includes(place.engagement))
      return { agent: this.fallback };
    return { ignored: true };
  }
}

function matches(pattern: RegExp, place: SlackPlace): boolean {
  return (
    pattern.test(place.channelId) || (place.channelName !== undefined && pattern.test(place.channelName))
  );
}
