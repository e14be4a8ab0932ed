import {
  finalReport,
  loadedTools,
  type ModelServer,
  type RecordedRequest,
  type ScriptStep,
  startModelServer,
} from '@agent/testkit';
import { type AgentConfig, defineAgent, tool } from '../../src/index.js';
import { openaiModelOn } from '../helpers/http-model.js';

// The tool-search tests' session: a catalog of code tools from several "services", each one
// recording its calls, on the scripted model server over HTTP (strict).
export const NONCE = 'a11ce5ea';

export const servers: ModelServer[] = [];

export async function serve(steps: ScriptStep[]): Promise<ModelServer> {
  const server = await startModelServer({ strict: true, steps });
  servers.push(server);
  return server;
}

/** name, description, parameter (name and description). */
const CATALOG: [string, string, string, string][] = [
  ['status_health', 'Reports whether the service is up', 'verbose', 'Include details'],
  ['github__create_issue', 'Opens a new issue in a GitHub repository', 'title', 'Issue title'],
  ['github__list_pull_requests', 'Lists the open pull requests of a repository', 'repo', 'owner/name'],
  [
    'billing__refundInvoice',
    'Gives the money of a paid invoice back to the customer',
    'invoice_number',
    'The invoice to refund',
  ],
  ['billing__list-invoices', 'Lists the invoices of a customer', 'customer_id', 'The customer'],
  ['calendar__create_event', 'Puts a meeting on the calendar', 'start_time', 'When it starts'],
  ['weather__forecast', 'The weather forecast for a city', 'city', 'City name'],
  ['files__delete_file', 'Deletes a file from the shared drive', 'path', 'The file path'],
];

export const TOOL_NAMES = CATALOG.map(([name]) => name);

/** An agent with the catalog's tools; `ran` gets `<tool>:<argument>` for each call. */
export function catalogAgent(
  server: ModelServer,
  ran: string[],
  extra: Partial<AgentConfig> = {},
): AgentConfig {
  return defineAgent({
    model: openaiModelOn(server),
    instructions: 'Use the tools to do what the user asks, then report.',
    maxTurns: 6,
    tools: CATALOG.map(([name, description, param, paramDescription]) =>
      tool({
        name,
        description,
        parameters: {
          type: 'object',
          properties: { [param]: { type: 'string', description: paramDescription } },
        },
        execute: (args) => {
          ran.push(`${name}:${String(args[param] ?? '')}`);
          return `${name} done`;
        },
      }),
    ),
    ...extra,
  });
}

export const toolNames = (tools: readonly { name: string }[]) => tools.map((tool) => tool.name);

/** The model: searches, then calls the refund tool only once the request has it loaded. */
export const NATIVE_STEPS = [
  { toolCalls: [{ id: 'call_s1', name: 'tool_search', arguments: { query: 'refund an invoice' } }] },
  (request: RecordedRequest) =>
    loadedTools(request).includes('billing__refundInvoice')
      ? {
          toolCalls: [
            { id: 'call_r1', name: 'billing__refundInvoice', arguments: { invoice_number: 'INV-7' } },
          ],
        }
      : finalReport('The refund tool was not loaded.'),
  finalReport('Refunded INV-7.'),
];
