// Typechecks a README's ```ts blocks the way a user's project would: each block is a file of a
// fresh project (strict, NodeNext, noEmit) whose node_modules holds only the packages the README
// says to install, linked to the workspace's copies. Workspace packages resolve through their
// `@agent/source` condition, so no build is needed.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { REPO_ROOT, workspacePackages } from './workspace-packages.js';

export { REPO_ROOT };

/** What a user's project would set, plus the condition that points at workspace sources. */
const USER_COMPILER_OPTIONS = {
  strict: true,
  noEmit: true,
  target: 'ES2022',
  lib: ['ES2023'],
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  moduleDetection: 'force',
  customConditions: ['@agent/source'],
  types: ['node'],
  skipLibCheck: true,
};

export interface CodeBlock {
  /** 1-based line of the README where the block's code starts. */
  line: number;
  code: string;
}

/** `README.md:line:column TSnnnn message` for every compiler error in the blocks. */
export function typecheckBlocks(readmePath: string, blocks: CodeBlock[], installed: string[]): string[] {
  if (blocks.length === 0) return [];
  const project = mkdtempSync(join(tmpdir(), 'readme-ts-'));
  try {
    const problems = linkInstalledPackages(project, dirname(readmePath), installed);
    writeFileSync(join(project, 'package.json'), '{ "private": true, "type": "module" }\n');
    const files = blocks.map((block) => {
      const file = join(project, `readme-line-${block.line}.ts`);
      writeFileSync(file, block.code);
      return { file, block };
    });
    const { options, errors } = ts.convertCompilerOptionsFromJson(
      { ...USER_COMPILER_OPTIONS, typeRoots: [join(REPO_ROOT, 'node_modules', '@types')] },
      project,
    );
    if (errors.length > 0) throw new Error(errors.map((error) => describe(error)).join('\n'));
    const program = ts.createProgram({ rootNames: files.map(({ file }) => file), options });
    const readmeName = readmePath.slice(REPO_ROOT.length);
    for (const { file, block } of files) {
      const source = program.getSourceFile(file);
      for (const diagnostic of ts.getPreEmitDiagnostics(program, source)) {
        const where =
          diagnostic.file === source && source !== undefined && diagnostic.start !== undefined
            ? source.getLineAndCharacterOfPosition(diagnostic.start)
            : undefined;
        const at = where ? `${block.line + where.line}:${where.character + 1}` : `${block.line}`;
        problems.push(`${readmeName}:${at} ${describe(diagnostic)}`);
      }
    }
    return problems;
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}

function describe(diagnostic: ts.Diagnostic): string {
  return `TS${diagnostic.code} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`;
}

/** Links `project/node_modules/<name>` to the workspace's copy of each installed package. */
function linkInstalledPackages(project: string, readmeDir: string, installed: string[]): string[] {
  const problems: string[] = [];
  const workspace = workspacePackages();
  for (const name of installed) {
    const target = workspace.get(name) ?? dependencyDir(name, [readmeDir, REPO_ROOT, ...workspace.values()]);
    if (target === undefined) {
      problems.push(`the README says to install ${name}, which no package of the workspace has`);
      continue;
    }
    const link = join(project, 'node_modules', name);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(target, link, 'dir');
  }
  return problems;
}

function dependencyDir(name: string, from: string[]): string | undefined {
  for (const dir of from) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(candidate)) return realpathSync(candidate);
  }
  return undefined;
}
