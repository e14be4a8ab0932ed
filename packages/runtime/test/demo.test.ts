import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentEvent, AgentEventMeta, OpNode } from '@agent/protocol';
import { type ScriptedAnswer, startModelServer } from '@agent/testkit';
import { expect, test } from 'vitest';
import { runAgentFile } from '../src/index.js';
import { tempTree } from './helpers/temp-tree.js';

const demoDir = fileURLToPath(new URL('../../../examples/demo/', import.meta.url));

function findNode(node: OpNode, predicate: (node: OpNode) => boolean): OpNode | undefined {
  if (predicate(node)) return node;
  for (const child of node.children) {
    const found = findNode(child, predicate);
    if (found !== undefined) return found;
  }
  return undefined;
}

test('the demo tree runs end to end: real fs MCP server over stdio, a sub-agent with an output schema, a JSON report', async () => {
  const script = JSON.parse(readFileSync(join(demoDir, 'script.json'), 'utf8')) as {
    steps: ScriptedAnswer[];
  };
  const server = await startModelServer({ steps: script.steps });
  const elsewhere = tempTree();
  const events: { event: AgentEvent; meta: AgentEventMeta }[] = [];
  try {
    const result = await runAgentFile(
      join(demoDir, 'orchestrator.ai'),
      readFileSync(join(demoDir, 'prompt.txt'), 'utf8'),
      {
        configPath: join(demoDir, 'agent.json'),
        cwd: demoDir,
        env: { DEMO_BASE_URL: `${server.url}/v1` },
        userConfigDir: join(elsewhere, 'user'),
        systemConfigDir: join(elsewhere, 'system'),
        onEvent: (event, meta) => events.push({ event, meta }),
      },
    );
    expect(result.error).toBeUndefined();
    expect(result.exitCode).toBe('EXIT-FINAL-ANSWER');
    expect(result.finalReport?.format).toBe('json');
    const report = result.finalReport?.content_json as { files: string[]; summary: { headline: string } };
    expect(report.files).toContain('notes.md');
    expect(report.summary.headline).toMatch(/payments timed out/);
    server.assertAllConsumed();

    // The fs tools really ran against examples/demo/data (through agent-fs-mcp over stdio).
    const toolText = (name: string) =>
      result.conversation.find((m) => m.role === 'tool' && m.toolName === name)?.content ?? '';
    expect(toolText('fs__ListDir')).toContain('app.log');
    expect(toolText('fs__Grep')).toContain('app.log:3:');
    expect(toolText('fs__Read')).toContain('read replica');
    // The parent received the summarizer's structured answer as JSON text.
    expect(JSON.parse(toolText('agent__summarizer'))).toMatchObject({ bullet_points: expect.any(Array) });

    // The summarizer ran as a sub-agent: its events reached the caller, its accounting joined the
    // result, and its op tree hangs under the tool call.
    expect(events.some(({ meta }) => meta.agentPath === 'orchestrator.summarizer' && !meta.isMaster)).toBe(
      true,
    );
    const childLlm = result.accounting.filter(
      (e) => e.type === 'llm' && e.agentPath === 'orchestrator.summarizer',
    );
    expect(childLlm).toHaveLength(1);
    expect(result.accounting.filter((e) => e.type === 'llm')).toHaveLength(5);
    const toolNode = findNode(result.opTree!, (n) => n.kind === 'tool' && n.label === 'agent__summarizer');
    expect(toolNode?.children[0]?.kind).toBe('session');
    expect(result.opTree?.totals.llmCalls).toBe(5);
    // The summarizer got the parent's schema as its output contract.
    const summarizerRequest = server.requests[3]!;
    expect(summarizerRequest.messages.map((m) => m.content).join('\n')).toContain('"bullet_points"');
  } finally {
    await server.close();
  }
});
