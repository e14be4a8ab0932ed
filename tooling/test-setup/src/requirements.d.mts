// Types of requirements.mjs, for the TypeScript that imports it (tooling/vitest/skip.ts).
type Env = Record<string, string | undefined>;

interface RequirementBase {
  /** The name tests and messages use: `requires('tmux')`. */
  id: string;
  /** How messages name it, when not by its id. */
  label?: string;
  /** What needs it, for the preflight's message. */
  neededBy: string;
  /** The Debian package that provides it. */
  debian?: string;
  /** The npm project (relative to the repository) whose `npm ci` provides it. */
  npmPrefix?: string;
}

export type Requirement = RequirementBase &
  (
    | { program: string; file?: undefined; files?: undefined }
    | { program?: undefined; file: (env: Env) => string; files?: undefined }
    | { program?: undefined; file?: undefined; npmPrefix: string; files: string[] }
  );

export const REPO_DIR: string;
export function chromiumPath(env?: Env): string;
export const REQUIREMENTS: readonly Requirement[];
export function findProgram(program: string, env?: Env): string | undefined;
export function locate(requirement: Requirement, env?: Env, repoDir?: string): string[] | undefined;
export function whereMissing(requirement: Requirement, env?: Env): string;
export function installCommand(requirements: readonly Requirement[], options?: { root?: boolean }): string[];
export function labelOf(requirement: Requirement): string;
export function requirement(id: string): Requirement;
export function missingReason(id: string, env?: Env, repoDir?: string): string | undefined;
export function fingerprint(env?: Env, repoDir?: string): string;
