import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInProcessFsProvider } from '@agent/mcp/fs-server';
import type { ConversationMessage } from '@agent/protocol';
import type { RecordedRequest } from '@agent/testkit';
import { NONCE } from './scenario.js';

/** A fresh parent directory for tool-output stores. */
export function storeParent(): { path: string; sessionDirs: () => string[]; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), 'core-tool-output-'));
  return {
    path,
    sessionDirs: () => readdirSync(path).filter((name) => name.startsWith('ai-agent-')),
    remove: () => rmSync(path, { recursive: true, force: true }),
  };
}

/** Read and Grep of the in-process filesystem MCP server, confined to the session directory. */
export const readGrepTools = (root: string) =>
  createInProcessFsProvider({ root, tools: ['Read', 'Grep'], naming: 'bare' });

/** An extraction answer in the FINAL wrapper the extraction prompts ask for (no status attribute). */
export function extractionAnswer(text: string): string {
  return `<ai-agent-${NONCE}-FINAL format="text">${text}</ai-agent-${NONCE}-FINAL>`;
}

const HANDLE = /tool_output\(handle = "([0-9a-f-]{36})"/;

/** The newest handle the model was given in a tool result. */
export function handleIn(messages: readonly ConversationMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    const found = message.role === 'tool' ? HANDLE.exec(message.content) : null;
    if (found) return found[1]!;
  }
  throw new Error('no handle message in the conversation');
}

/** Content of the tool result for a call id. */
export function toolResult(messages: readonly ConversationMessage[], callId: string): string {
  const message = messages.find((m) => m.role === 'tool' && m.toolCallId === callId);
  if (message === undefined) throw new Error(`no tool result for ${callId}`);
  return message.content;
}

export const systemOf = (r: RecordedRequest) =>
  r.messages[0]?.role === 'system' ? r.messages[0].content : '';
export const isMapCall = (r: RecordedRequest) =>
  systemOf(r).includes('extract information from a document chunk');
export const isReduceCall = (r: RecordedRequest) =>
  systemOf(r).includes('synthesize multiple chunk extractions');
export const isReadGrepChild = (r: RecordedRequest) =>
  systemOf(r).includes('You can only use Read and Grep tools.');

/** A log of `lines` lines (~60 bytes each), an ERROR every 1000th line. */
export function logText(lines: number): string {
  const out: string[] = [];
  for (let i = 1; i <= lines; i++) {
    out.push(
      i % 1000 === 0
        ? `2026-01-14T10:00:00Z ERROR worker-${i} failed: disk quota exceeded`
        : `2026-01-14T10:00:00Z INFO worker-${i} processed item ${i}`,
    );
  }
  return `${out.join('\n')}\n`;
}
