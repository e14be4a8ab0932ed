import { createHash } from 'node:crypto';
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

/** What is kept for one server between runs: its OAuth client and tokens. */
export interface StoredAuthorization {
  /** The server URL the tokens were issued for (a changed URL does not reuse them). */
  url: string;
  /** The client registered dynamically (pre-registered clients live in the config instead). */
  client?: OAuthClientInformationMixed;
  /** The redirect URI the client was registered with. */
  redirectUrl?: string;
  tokens?: OAuthTokens;
  /** Epoch ms when the access token expires, from `expires_in` at the time it was saved. */
  expiresAt?: number;
}

/** Where OAuth state is kept, keyed by server name. */
export interface McpTokenStore {
  load(server: string): Promise<StoredAuthorization | undefined>;
  save(server: string, value: StoredAuthorization): Promise<void>;
  remove(server: string): Promise<void>;
}

/** Kept in memory only (tests, one-off clients). */
export class MemoryTokenStore implements McpTokenStore {
  private readonly entries = new Map<string, StoredAuthorization>();

  async load(server: string): Promise<StoredAuthorization | undefined> {
    const found = this.entries.get(server);
    return found === undefined ? undefined : structuredClone(found);
  }

  async save(server: string, value: StoredAuthorization): Promise<void> {
    this.entries.set(server, structuredClone(value));
  }

  async remove(server: string): Promise<void> {
    this.entries.delete(server);
  }
}

/** Largest token file read back (a larger one is treated as absent). */
const MAX_FILE_BYTES = 256 * 1024;

/**
 * One JSON file per server in `dir` (created with mode 0700), each written with mode 0600
 * through a temporary file and a rename, so a crash never leaves half a token file. File names
 * are a hash of the server name, so a name never becomes a path.
 */
export class FileTokenStore implements McpTokenStore {
  constructor(readonly dir: string) {}

  /** The file of one server. */
  fileOf(server: string): string {
    return join(this.dir, `${createHash('sha256').update(server).digest('hex').slice(0, 32)}.json`);
  }

  async load(server: string): Promise<StoredAuthorization | undefined> {
    let text: string;
    try {
      text = await readFile(this.fileOf(server), 'utf8');
    } catch {
      return undefined;
    }
    if (text.length > MAX_FILE_BYTES) return undefined;
    try {
      const value = JSON.parse(text) as { server?: unknown } & StoredAuthorization;
      return value.server === server ? value : undefined;
    } catch {
      return undefined;
    }
  }

  async save(server: string, value: StoredAuthorization): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    await chmod(this.dir, 0o700);
    const file = this.fileOf(server);
    const temporary = `${file}.${process.pid}.tmp`;
    await writeFile(temporary, JSON.stringify({ server, ...value }), { mode: 0o600 });
    await rename(temporary, file);
  }

  async remove(server: string): Promise<void> {
    await rm(this.fileOf(server), { force: true });
  }
}
