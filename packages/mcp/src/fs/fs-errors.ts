import { AgentError } from '@agent/protocol';

/**
 * An error whose message is safe to show the model: it names paths only as the caller wrote
 * them relative to the root, never the root's absolute location.
 */
export class FsToolError extends AgentError {
  override readonly name = 'FsToolError';

  constructor(message: string) {
    super('fs_tool_failed', message);
  }
}

/** Turns a Node file-system error into a safe message about `display` (a root-relative path). */
export function safeFsError(error: unknown, display: string): FsToolError {
  if (error instanceof FsToolError) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return new FsToolError(`"${display}" does not exist.`);
    case 'ENOTDIR':
      return new FsToolError(`"${display}" is not a directory (or a parent of it is a file).`);
    case 'EISDIR':
      return new FsToolError(`"${display}" is a directory; use ListDir or Find for directories.`);
    case 'EACCES':
    case 'EPERM':
      return new FsToolError(`Permission denied for "${display}".`);
    case 'ELOOP':
      return new FsToolError(`"${display}" cannot be resolved: too many levels of symbolic links.`);
    case 'ABORT_ERR':
      return new FsToolError('The operation was cancelled.');
    default:
      return new FsToolError(`Could not access "${display}" (${code ?? 'unexpected error'}).`);
  }
}
