// The JSON the viewer's endpoints answer (apps/server/src/viewer/view-model.ts).
export interface Totals {
  llmCalls: number;
  toolCalls: number;
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  costUsd: number;
  durationMs: number;
}

export interface ViewNode {
  id: string;
  kind: 'session' | 'turn' | 'llm' | 'tool';
  label: string;
  startedAt: number;
  endedAt?: number;
  status: 'running' | 'ok' | 'failed';
  error?: string;
  model?: string;
  inputTokens?: number;
  outputTokens?: number;
  cachedTokens?: number;
  costUsd?: number;
  latencyMs?: number;
  arguments?: string;
  result?: string;
  sessionId?: string;
  children: ViewNode[];
}

export interface Summary {
  id: string;
  sessionId?: string;
  agent: string;
  headend?: string;
  status: 'running' | 'ok' | 'failed';
  startedAt: number;
  endedAt?: number;
  totals: Totals;
  reportStatus?: string;
}

export interface Report {
  status: string;
  format: string;
  content?: string;
  content_json?: Record<string, unknown>;
}

export interface SessionView extends Summary {
  tree: ViewNode;
  report?: Report;
  error?: string;
  droppedNodes: number;
}
