import { createHash, randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { chmod, mkdir, open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { AgentError } from '@agent/protocol';
import { nonRegularKind } from '@agent/protocol/util';
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

/** Largest token file read back: a larger one is refused (no token response comes near it). */
const MAX_TOKEN_FILE_BYTES = 256 * 1024;

// O_NOFOLLOW: a symlink planted at a token file (to /dev/zero, to another file) is refused.
// O_NONBLOCK: a FIFO opens at once (and is then refused by its fstat) instead of waiting for a writer.
const READ_FLAGS =
  constants.O_RDONLY | constants.O_NOFOLLOW | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);
// O_EXCL with O_NOFOLLOW: the temporary file is always a new regular file of this process, mode
// 0600, whatever was planted at a name (which is random besides).
const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/**
 * One JSON file per server in `dir` (created with mode 0700), each written with mode 0600
 * through a new temporary file under a random name and a rename, so a crash never leaves half a
 * token file. File names are a hash of the server name, so a name never becomes a path. A token
 * file is read only if it is a regular file (not a symlink, FIFO or device) of at most
 * `MAX_TOKEN_FILE_BYTES`: anything else is an `AgentError` (`mcp_unavailable`) saying what it is.
 */
export class FileTokenStore implements McpTokenStore {
  constructor(readonly dir: string) {}

  /** The file of one server. */
  fileOf(server: string): string {
    return join(this.dir, `${createHash('sha256').update(server).digest('hex').slice(0, 32)}.json`);
  }

  async load(server: string): Promise<StoredAuthorization | undefined> {
    const text = await this.readTokenFile(this.fileOf(server));
    if (text === undefined) return undefined;
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
    const temporary = `${file}.${randomBytes(12).toString('hex')}.tmp`;
    const handle = await open(temporary, CREATE_FLAGS, 0o600);
    try {
      await handle.writeFile(JSON.stringify({ server, ...value }));
      await handle.close();
      await rename(temporary, file);
    } catch (error) {
      await handle.close().catch(() => undefined);
      await rm(temporary, { force: true });
      throw error;
    }
  }

  async remove(server: string): Promise<void> {
    await rm(this.fileOf(server), { force: true });
  }

  /** The file's text, undefined when there is none; refuses anything but a small regular file. */
  private async readTokenFile(file: string): Promise<string | undefined> {
    const refuse = (what: string, cause?: unknown) =>
      new AgentError(
        'mcp_unavailable',
        `the OAuth token file ${file} ${what}: remove it and run \`agent mcp login\` again`,
        cause === undefined ? undefined : { cause },
      );
    let handle: Awaited<ReturnType<typeof open>>;
    try {
      handle = await open(file, READ_FLAGS);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return undefined;
      if (code === 'ELOOP') throw refuse('is a symbolic link, not a regular file', error);
      throw refuse(`cannot be read (${code ?? (error as Error).message})`, error);
    }
    try {
      const stats = await handle.stat();
      if (!stats.isFile()) throw refuse(`is ${nonRegularKind(stats)}, not a regular file`);
      if (stats.size > MAX_TOKEN_FILE_BYTES)
        throw refuse(`has ${stats.size} bytes, over the bound of ${MAX_TOKEN_FILE_BYTES} bytes`);
      // One byte more than the bound: a file that grew since fstat is caught, never read whole.
      const buffer = Buffer.alloc(MAX_TOKEN_FILE_BYTES + 1);
      let length = 0;
      for (;;) {
        const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
        length += bytesRead;
        if (bytesRead === 0 || length === buffer.length) break;
      }
      if (length > MAX_TOKEN_FILE_BYTES) throw refuse(`is over the bound of ${MAX_TOKEN_FILE_BYTES} bytes`);
      return buffer.subarray(0, length).toString('utf8');
    } finally {
      await handle.close();
    }
  }
}
