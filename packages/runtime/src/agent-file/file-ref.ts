import { resolve } from 'node:path';

/** A file an agent file names (a sub-agent, an advisor, ...), as written and resolved. */
export interface FileRef {
  /** As written. */
  spec: string;
  /** Absolute. */
  path: string;
  line?: number;
}

/** The refs of a list of paths written in the file at `dir`; `lineOf(index)` locates each. */
export function fileRefs(
  specs: readonly string[],
  dir: string,
  lineOf: (index: number) => number | undefined,
): FileRef[] {
  return specs.map((spec, index) => fileRef(spec, dir, lineOf(index)));
}

export function fileRef(spec: string, dir: string, line: number | undefined): FileRef {
  return { spec, path: resolve(dir, spec), ...(line === undefined ? {} : { line }) };
}
