import { homedir } from 'node:os';
import { join } from 'node:path';
import { isRecord } from '@agent/protocol/util';
import { type Context, checkKeys, fail, type Json, warn } from './ai-agent-context.js';

// The top-level sections of ai-agent's `.ai-agent.json` beside providers, MCP servers and
// queues: those that map onto this runtime's (`cache`, `persistence`, `accounting`), the one
// `agent-server` reads itself (`slack`), and those with no counterpart yet (a warning naming
// the section). docs/migrating-from-ai-agent.md has the table.

/** Sections ai-agent has that this runtime does not act on yet, with what that means. */
const INACTIVE_SECTIONS: Record<string, string> = {
  telemetry: 'no metrics or traces are exported',
  api: 'the REST headend is configured by `agent-server` options',
  restTools:
    'REST tools of an ai-agent file are not translated; define them under `restTools` of agent.json (docs/http-tools.md)',
  openapiSpecs:
    'OpenAPI specs of an ai-agent file are not translated; define them under `openapiSpecs` of agent.json (docs/http-tools.md)',
  logging: 'logging is set by command-line flags',
};

/** Maps the sections in place: `out` is the file being translated into `agent.json`'s shape. */
export function translateSections(out: Json, ctx: Context): void {
  for (const [section, why] of Object.entries(INACTIVE_SECTIONS)) {
    if (!(section in out)) continue;
    warn(ctx, [section], `section \`${section}\` is not active in this runtime yet and is ignored: ${why}`);
    delete out[section];
  }
  // `agent-server` reads it from the file itself (aiAgentConfigSection); an agent run has no use for it.
  delete out.slack;
  if (isRecord(out.cache)) out.cache = cacheSection(out.cache);
  if ('persistence' in out || 'accounting' in out) persistence(out, ctx);
}

function cacheSection(value: Json): Json {
  const out: Json = { ...value };
  if (isRecord(out.sqlite)) {
    out.path ??= out.sqlite.path;
    delete out.sqlite;
  }
  if (isRecord(out.redis)) {
    out.url ??= out.redis.url;
    delete out.redis;
  }
  return out;
}

/**
 * ai-agent's `persistence` (`sessionsDir`, `billingFile`) is this runtime's `persistence`
 * (session records and the billing ledger); its older `accounting.file` is the billing file
 * when `persistence.billingFile` is not set. `~` is the home directory.
 */
function persistence(out: Json, ctx: Context): void {
  const section = out.persistence ?? {};
  if (!isRecord(section)) {
    fail(ctx, ['persistence'], '`persistence` must be an object { sessionsDir?, billingFile? }');
    delete out.persistence;
    return;
  }
  const value: Json = { ...section };
  checkKeys(value, ['sessionsDir', 'billingFile'], [], ['persistence'], ctx);
  const accounting = out.accounting;
  delete out.accounting;
  if (isRecord(accounting)) {
    checkKeys(accounting, ['file'], [], ['accounting'], ctx);
    if (accounting.file !== undefined && (typeof accounting.file !== 'string' || accounting.file === ''))
      fail(ctx, ['accounting', 'file'], '`accounting.file` must be a path');
    else if (value.billingFile === undefined && accounting.file !== undefined)
      value.billingFile = accounting.file;
  }
  for (const key of ['sessionsDir', 'billingFile'] as const) {
    const path = value[key];
    if (path === undefined) continue;
    if (typeof path !== 'string' || path === '') {
      fail(ctx, ['persistence', key], `\`persistence.${key}\` must be a path`);
      delete value[key];
    } else value[key] = withHome(path);
  }
  if (Object.keys(value).length === 0) delete out.persistence;
  else out.persistence = value;
}

/** ai-agent's defaults are written `~/.ai-agent/...`: `~` is the home directory. */
function withHome(path: string): string {
  return path === '~' || path.startsWith('~/') ? join(homedir(), path.slice(1)) : path;
}
