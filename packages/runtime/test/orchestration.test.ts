import type { AgentEvent, AgentEventMeta, OpNode } from '@agent/protocol';
import { finalReport, toolCall } from '@agent/testkit';
import { describe, expect, test } from 'vitest';
import { runAgentFile } from '../src/index.js';
import { startRoleServer, userPrompt } from './helpers/role-server.js';
import { agentFile, isolated, localConfig, tempTree } from './helpers/temp-tree.js';

// Every role is a model of its own on one scripted HTTP server (official OpenAI client), so the
// assertions read what each agent was really sent.

interface Seen {
  event: AgentEvent;
  meta: AgentEventMeta;
}

function recorder() {
  const seen: Seen[] = [];
  return { seen, onEvent: (event: AgentEvent, meta: AgentEventMeta) => void seen.push({ event, meta }) };
}

const labels = (node: OpNode | undefined) => node?.children.map((child) => child.label);

describe('advisors', () => {
  test('advisors run on the prompt; their reports come before it as <advisory> blocks in the main request', async () => {
    const { server, requestsOf, assertAllConsumed } = await startRoleServer({
      'a-model': [finalReport('Use metric units.')],
      'b-model': [finalReport('Mention that Oslo is in Norway.')],
      'main-model': [finalReport('It is 12 degrees in Oslo, Norway.')],
    });
    try {
      const root = tempTree({
        'agent.json': localConfig({}, `${server.url}/v1`),
        'main.ai': agentFile('models: [local/main-model]\nadvisors: [./a.ai, ./b.ai]'),
        'a.ai': agentFile('models: [local/a-model]'),
        'b.ai': agentFile('models: [local/b-model]'),
      });
      const { seen, onEvent } = recorder();
      const result = await runAgentFile('main.ai', 'How warm is Oslo?', { ...isolated(root), onEvent });
      expect(result.error).toBeUndefined();
      expect(result.finalReport?.content).toBe('It is 12 degrees in Oslo, Norway.');
      expect(result.finalAgentId).toBe('main');
      assertAllConsumed();

      expect(userPrompt(requestsOf('a-model')[0])).toBe('How warm is Oslo?');
      expect(userPrompt(requestsOf('b-model')[0])).toBe('How warm is Oslo?');
      expect(userPrompt(requestsOf('main-model')[0])).toBe(
        '<advisory source="a.ai">\nUse metric units.\n</advisory>\n\n' +
          '<advisory source="b.ai">\nMention that Oslo is in Norway.\n</advisory>\n\n' +
          'How warm is Oslo?',
      );

      // Each stage under its own agent path, in the op tree and in the totals.
      const paths = new Set(result.accounting.filter((e) => e.type === 'llm').map((e) => e.agentPath));
      expect(paths).toEqual(new Set(['main.advisor:a', 'main.advisor:b', 'main']));
      expect(labels(result.opTree)).toEqual(['advisor:a', 'advisor:b', 'main']);
      expect(result.opTree?.totals.llmCalls).toBe(3);
      expect(result.logs.filter((l) => l.remoteIdentifier === 'agent:advisor').map((l) => l.message)).toEqual(
        expect.arrayContaining(['advisor a.ai answered (17 characters)']),
      );
      // Advisors are helpers, not the answer; only the main agent's report is final.
      const finals = seen.filter((s) => s.event.type === 'final_report' && s.meta.isMaster);
      expect(finals.map((s) => s.meta.agentPath)).toEqual(['main']);
      expect(seen.find((s) => s.meta.agentPath === 'main.advisor:a')?.meta.isMaster).toBe(false);
    } finally {
      await server.close();
    }
  });

  test('a failing advisor and one that times out leave a failure notice; the main run goes on', async () => {
    const { server, requestsOf } = await startRoleServer({
      'a-model': [{ error: { kind: 'auth', message: 'bad key' } }],
      'slow-model': [{ fault: 'hang' }],
      'main-model': [finalReport('Answered without advice.')],
    });
    try {
      const root = tempTree({
        'agent.json': localConfig({}, `${server.url}/v1`),
        'main.ai': agentFile(
          'models: [local/main-model]\nadvisors: [./a.ai, ./slow.ai]\nadvisorTimeout: 300',
        ),
        'a.ai': agentFile('models: [local/a-model]'),
        'slow.ai': agentFile('models: [local/slow-model]'),
      });
      const result = await runAgentFile('main.ai', 'Go.', isolated(root));
      expect(result.success).toBe(true);
      expect(result.finalReport?.content).toBe('Answered without advice.');
      const prompt = userPrompt(requestsOf('main-model')[0]);
      expect(prompt).toMatch(
        /^<advisory source="a\.ai">\n\(advisor failed: EXIT-AUTH-FAILURE: .*; answer without its advice\)\n<\/advisory>/,
      );
      expect(prompt).toContain(
        '<advisory source="slow.ai">\n(advisor failed: timed out after 300 ms; answer without its advice)\n</advisory>\n\nGo.',
      );
      const warnings = result.logs.filter(
        (l) => l.remoteIdentifier === 'agent:advisor' && l.severity === 'WRN',
      );
      expect(warnings.map((l) => l.agentPath).sort()).toEqual(['main.advisor:a', 'main.advisor:slow']);
    } finally {
      await server.close();
    }
  });
});

test('cancelling the run while an advisor runs ends it at once, without the main model call', async () => {
  const controller = new AbortController();
  const { server, requestsOf } = await startRoleServer({
    'a-model': [
      () => {
        controller.abort();
        return { fault: 'hang' };
      },
    ],
    'main-model': [finalReport('never')],
  });
  try {
    const root = tempTree({
      'agent.json': localConfig({}, `${server.url}/v1`),
      'main.ai': agentFile('models: [local/main-model]\nadvisors: [./a.ai]'),
      'a.ai': agentFile('models: [local/a-model]'),
    });
    const result = await runAgentFile('main.ai', 'Go.', { ...isolated(root), signal: controller.signal });
    expect(result.exitCode).toBe('EXIT-ABORTED');
    expect(requestsOf('main-model')).toHaveLength(0);
  } finally {
    await server.close();
  }
});

describe('router', () => {
  const files = (url: string) => ({
    'agent.json': localConfig({}, `${url}/v1`),
    'triage.ai': agentFile(
      'models: [local/triage-model]\nrouter:\n  destinations: [./billing.ai, ./tech.ai]',
    ),
    'billing.ai': agentFile('models: [local/billing-model]\ndescription: Invoices and refunds.'),
    'tech.ai': agentFile('models: [local/tech-model]\ndescription: Technical problems.'),
  });
  const SCHEMA = {
    type: 'object',
    required: ['answer'],
    properties: { answer: { type: 'string' } },
    additionalProperties: false,
  };

  test('the router gets router__handoff-to with the destinations; the destination gets the request, the message and the caller format', async () => {
    const { server, requestsOf, assertAllConsumed } = await startRoleServer({
      'triage-model': [
        toolCall('router__handoff-to', { agent: 'billing', message: 'Order 42, paid twice.' }),
      ],
      'billing-model': [finalReport({ answer: 'Refund issued for order 42.' }, { format: 'json' })],
    });
    try {
      const root = tempTree(files(server.url));
      const { seen, onEvent } = recorder();
      const result = await runAgentFile('triage.ai', 'I was charged twice.', {
        ...isolated(root),
        schema: SCHEMA,
        onEvent,
      });
      expect(result.error).toBeUndefined();
      expect(result.finalReport?.content_json).toEqual({ answer: 'Refund issued for order 42.' });
      expect(result.finalAgentId).toBe('billing');
      assertAllConsumed();

      const tool = requestsOf('triage-model')[0]!.tools.find((t) => t.name === 'router__handoff-to');
      expect(tool?.inputSchema).toMatchObject({
        properties: { agent: { enum: ['billing', 'tech'] }, message: { type: 'string' } },
        required: ['agent'],
      });
      const system = requestsOf('triage-model')[0]!.messages[0]!.content;
      expect(system).toContain('- billing: Invoices and refunds.');

      const billing = requestsOf('billing-model')[0]!;
      expect(userPrompt(billing)).toBe(
        '<advisory source="triage.ai">\nOrder 42, paid twice.\n</advisory>\n\nI was charged twice.',
      );
      // The caller's output contract: json with its schema.
      expect(billing.messages.map((m) => m.content).join('\n')).toContain('"required":["answer"]');

      const handoffs = seen.filter((s) => s.event.type === 'handoff');
      expect(handoffs.map((s) => s.event)).toEqual([
        expect.objectContaining({ from: 'triage', to: 'triage.router:billing', via: 'router' }),
      ]);
      const finals = seen.filter((s) => s.event.type === 'final_report');
      expect(finals.map((s) => [s.meta.agentPath, s.meta.isMaster, s.meta.isFinal])).toEqual([
        ['triage.router:billing', true, true],
      ]);
      // The router's note is no answer: nothing of it streams as output.
      expect(seen.filter((s) => s.event.type === 'output' && s.meta.agentPath === 'triage')).toEqual([]);
      expect(labels(result.opTree)).toEqual(['triage', 'router:billing']);
      expect(result.opTree?.totals.llmCalls).toBe(2);
      expect(result.logs.find((l) => l.remoteIdentifier === 'agent:router')?.message).toBe(
        'triage hands the request to billing',
      );
    } finally {
      await server.close();
    }
  });

  test('an unknown destination is a tool error the router reads; a router that answers itself ends normally', async () => {
    const { server, requestsOf, assertAllConsumed } = await startRoleServer({
      'triage-model': [
        toolCall('router__handoff-to', { agent: 'biling' }),
        finalReport('I can answer that: 42.'),
      ],
    });
    try {
      const root = tempTree(files(server.url));
      const result = await runAgentFile('triage.ai', 'What is the answer?', isolated(root));
      expect(result.finalReport?.content).toBe('I can answer that: 42.');
      expect(result.finalAgentId).toBe('triage');
      assertAllConsumed();
      const toolMessage = requestsOf('triage-model')[1]!.messages.find((m) => m.role === 'tool');
      expect(toolMessage?.content).toBe('(tool failed: unknown agent `biling`; did you mean `billing`?)');
      expect(requestsOf('billing-model')).toHaveLength(0);
    } finally {
      await server.close();
    }
  });
});

describe('handoff', () => {
  test('the handoff gets the request and the answer as blocks, and its report is the final answer', async () => {
    const { server, requestsOf, assertAllConsumed } = await startRoleServer({
      'main-model': [finalReport('raw: 3 cities')],
      'fmt-model': [finalReport('**Three** cities.')],
    });
    try {
      const root = tempTree({
        'agent.json': localConfig({}, `${server.url}/v1`),
        'main.ai': agentFile('models: [local/main-model]\nhandoff: ./formatter.ai'),
        'formatter.ai': agentFile('models: [local/fmt-model]'),
      });
      const { seen, onEvent } = recorder();
      const result = await runAgentFile('main.ai', 'How many cities?', { ...isolated(root), onEvent });
      expect(result.finalReport?.content).toBe('**Three** cities.');
      expect(result.finalAgentId).toBe('formatter');
      assertAllConsumed();
      expect(userPrompt(requestsOf('fmt-model')[0])).toBe(
        '<original_user_request>\nHow many cities?\n</original_user_request>\n\n<response>\nraw: 3 cities\n</response>',
      );
      const handoff = seen.find((s) => s.event.type === 'handoff');
      expect(handoff?.event).toMatchObject({
        from: 'main',
        to: 'main.handoff:formatter',
        via: 'handoff',
        report: { content: 'raw: 3 cities' },
      });
      expect(handoff?.meta).toMatchObject({
        isFinal: false,
        handoffConfigured: true,
        pendingHandoffCount: 1,
      });
      const finals = seen.filter((s) => s.event.type === 'final_report');
      expect(finals.map((s) => s.meta.agentPath)).toEqual(['main.handoff:formatter']);
      // Whoever shows output can tell the main agent's text is not the answer.
      const outputs = seen.filter((s) => s.event.type === 'output');
      expect(outputs.map((s) => [s.meta.agentPath, s.meta.pendingHandoffCount])).toEqual([
        ['main', 1],
        ['main.handoff:formatter', 0],
      ]);
      expect(labels(result.opTree)).toEqual(['main', 'handoff:formatter']);
    } finally {
      await server.close();
    }
  });

  test('no handoff after a failed main run: the run fails with the main error', async () => {
    const { server, requestsOf } = await startRoleServer({
      'main-model': [{ error: { kind: 'auth', message: 'bad key' } }],
      'fmt-model': [finalReport('never')],
    });
    try {
      const root = tempTree({
        'agent.json': localConfig({}, `${server.url}/v1`),
        'main.ai': agentFile('models: [local/main-model]\nhandoff: ./formatter.ai'),
        'formatter.ai': agentFile('models: [local/fmt-model]'),
      });
      const result = await runAgentFile('main.ai', 'Go.', isolated(root));
      expect(result.success).toBe(false);
      expect(result.exitCode).toBe('EXIT-AUTH-FAILURE');
      expect(result.finalAgentId).toBe('main');
      expect(requestsOf('fmt-model')).toHaveLength(0);
    } finally {
      await server.close();
    }
  });
});

describe('the whole chain', () => {
  test('advisors -> router -> destination -> handoff, each with its agent path, in the op tree and the totals', async () => {
    const { server, requestsOf, assertAllConsumed } = await startRoleServer({
      'a-model': [finalReport('The user is a premium customer.')],
      'triage-model': [toolCall('router__handoff-to', { agent: 'tech' })],
      'tech-model': [finalReport('Restart the router.')],
      'fmt-model': [finalReport('Please restart your router.')],
    });
    try {
      const root = tempTree({
        'agent.json': localConfig({}, `${server.url}/v1`),
        'triage.ai': agentFile(
          'models: [local/triage-model]\nadvisors: [./a.ai]\nrouter: { destinations: [./tech.ai] }\nhandoff: ./fmt.ai',
        ),
        'a.ai': agentFile('models: [local/a-model]'),
        'tech.ai': agentFile('models: [local/tech-model]'),
        'fmt.ai': agentFile('models: [local/fmt-model]'),
      });
      const { seen, onEvent } = recorder();
      const result = await runAgentFile('triage.ai', 'My internet is down.', { ...isolated(root), onEvent });
      expect(result.finalReport?.content).toBe('Please restart your router.');
      expect(result.finalAgentId).toBe('fmt');
      assertAllConsumed();
      expect(server.requests.map((r) => r.model)).toEqual([
        'a-model',
        'triage-model',
        'tech-model',
        'fmt-model',
      ]);
      expect(userPrompt(requestsOf('triage-model')[0])).toContain('<advisory source="a.ai">');
      // The destination gets the original request (no router message, no advisories of the router).
      expect(userPrompt(requestsOf('tech-model')[0])).toBe('My internet is down.');
      expect(userPrompt(requestsOf('fmt-model')[0])).toContain(
        '<response>\nRestart the router.\n</response>',
      );

      expect(labels(result.opTree)).toEqual(['advisor:a', 'triage', 'router:tech', 'handoff:fmt']);
      expect(result.opTree?.totals.llmCalls).toBe(4);
      const paths = result.accounting.filter((e) => e.type === 'llm').map((e) => e.agentPath);
      expect(paths).toEqual(['triage.advisor:a', 'triage', 'triage.router:tech', 'triage.handoff:fmt']);
      const handoffs = seen.filter((s) => s.event.type === 'handoff').map((s) => s.event);
      expect(handoffs).toEqual([
        expect.objectContaining({ from: 'triage', to: 'triage.router:tech', via: 'router' }),
        expect.objectContaining({ from: 'triage.router:tech', to: 'triage.handoff:fmt', via: 'handoff' }),
      ]);
      const techMeta = seen.find((s) => s.meta.agentPath === 'triage.router:tech')?.meta;
      expect(techMeta).toMatchObject({ isMaster: true, pendingHandoffCount: 1, handoffConfigured: false });
    } finally {
      await server.close();
    }
  });
});

describe('an agent with orchestration called as a sub-agent', () => {
  test('its whole chain runs inside the tool call, and the parent receives the last report', async () => {
    const { server, requestsOf, assertAllConsumed } = await startRoleServer({
      'parent-model': [
        toolCall('agent__writer', { prompt: 'Draft a greeting.' }),
        (request) => {
          const tool = request.messages.find((m) => m.role === 'tool');
          return finalReport(`Parent got: ${tool?.content}`);
        },
      ],
      'writer-model': [finalReport('hi')],
      'fmt-model': [finalReport('Hello!')],
    });
    try {
      const root = tempTree({
        'agent.json': localConfig({}, `${server.url}/v1`),
        'parent.ai': agentFile('models: [local/parent-model]\nagents: [./writer.ai]'),
        'writer.ai': agentFile('models: [local/writer-model]\nhandoff: ./fmt.ai'),
        'fmt.ai': agentFile('models: [local/fmt-model]'),
      });
      const { seen, onEvent } = recorder();
      const result = await runAgentFile('parent.ai', 'Greet.', { ...isolated(root), onEvent });
      expect(result.finalReport?.content).toBe('Parent got: Hello!');
      expect(result.finalAgentId).toBe('parent');
      assertAllConsumed();
      expect(userPrompt(requestsOf('fmt-model')[0])).toContain('<response>\nhi\n</response>');
      const paths = result.accounting.filter((e) => e.type === 'llm').map((e) => e.agentPath);
      expect(paths).toEqual(['parent', 'parent.writer', 'parent.writer.handoff:fmt', 'parent']);
      expect(seen.filter((s) => s.event.type === 'handoff').map((s) => s.meta.isMaster)).toEqual([false]);
      // The chain's tree hangs under the parent's tool call, stages below it.
      const call = result.opTree?.children[0]?.children.find((n) => n.label === 'agent__writer');
      expect(labels(call?.children[0])).toEqual(['writer', 'handoff:fmt']);
    } finally {
      await server.close();
    }
  });
});
