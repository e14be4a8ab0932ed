/** What `fs.Stats` (or a file handle's `stat()`) says a path is; a structural type, so no I/O here. */
export interface FileKindStats {
  isFile(): boolean;
  isDirectory(): boolean;
  isFIFO(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
  isSocket(): boolean;
}

/**
 * What a path that is not a regular file is, for an error that says why it was refused
 * ("a named pipe (FIFO)", "a directory", ...); undefined for a regular file.
 */
export function nonRegularKind(stats: FileKindStats): string | undefined {
  if (stats.isFile()) return undefined;
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a named pipe (FIFO)';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  return 'not a regular file';
}
