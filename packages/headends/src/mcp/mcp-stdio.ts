import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { Admission } from '../admission.js';
import type { AgentCatalog } from '../agent-catalog.js';
import { ANONYMOUS_PRINCIPAL } from '../principal.js';
import { createAgentToolsServer } from './agent-tools.js';

export interface McpStdioOptions {
  catalog: AgentCatalog;
  concurrency?: number;
  queueSize?: number;
  headendId?: string;
  /** How long an elicitation for an approval may wait (default 10 minutes); then the call is denied. */
  approvalTimeoutMs?: number;
  /** Default process.stdin / process.stdout. */
  stdin?: Readable;
  stdout?: Writable;
}

export interface McpStdioHeadend {
  admission: Admission;
  /** Resolves when the client closes the connection. */
  closed: Promise<void>;
  close(): Promise<void>;
}

/** MCP headend over stdio: every agent is a tool. The process's stdout belongs to the protocol. */
export async function serveMcpStdio(options: McpStdioOptions): Promise<McpStdioHeadend> {
  const admission = new Admission({ limit: options.concurrency, queueSize: options.queueSize });
  const server = createAgentToolsServer({
    catalog: options.catalog,
    admission,
    headendId: options.headendId ?? 'mcp-stdio',
    // The client over stdio is the process that started the server: the operator.
    principal: ANONYMOUS_PRINCIPAL,
    ...(options.approvalTimeoutMs === undefined ? {} : { approvalTimeoutMs: options.approvalTimeoutMs }),
  });
  const transport = new StdioServerTransport(options.stdin, options.stdout);
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  await server.connect(transport);
  return {
    admission,
    closed,
    close: async () => {
      admission.beginDrain();
      admission.abortAll();
      await server.close();
    },
  };
}
