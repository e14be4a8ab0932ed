import { finalReport, type ModelServer, type ScriptStep } from '@agent/testkit';
import { type AgentConfig, defineAgent, tool } from '../../src/index.js';
import { agentOn } from './five-turns.js';

// The approval tests' session: one `deploy` call that needs approval for prod, then a report.
export const DEPLOY_CALL: ScriptStep = {
  text: 'Deploying.',
  toolCalls: [{ id: 'call_d1', name: 'deploy', arguments: { env: 'prod' } }],
};
export const DEPLOY_STEPS: ScriptStep[] = [DEPLOY_CALL, finalReport('Deployed.')];

/** The five-turn agent plus `deploy`, which records each environment it ran for in `ran`. */
export function deployAgent(server: ModelServer, ran: string[]): AgentConfig {
  const base = agentOn(server);
  return defineAgent({
    ...base,
    tools: [
      ...(base.tools ?? []),
      tool({
        name: 'deploy',
        description: 'Deploys the service',
        parameters: { type: 'object', properties: { env: { type: 'string' } }, required: ['env'] },
        needsApproval: (args) => args.env === 'prod',
        execute: ({ env }) => {
          ran.push(String(env));
          return `deployed to ${String(env)}`;
        },
      }),
    ],
  });
}
