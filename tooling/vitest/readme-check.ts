// Checks what a reader of a README would copy: every package its examples import is named on
// one of its install lines (`npm i ...`, `pnpm add ...`), and every ```ts block typechecks under
// strict TypeScript against those packages.
import { readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { type CodeBlock, REPO_ROOT, typecheckBlocks } from './readme-typecheck.js';

interface Fence extends CodeBlock {
  lang: string;
}

const TS_FENCES = new Set(['ts', 'typescript']);
const CODE_FENCES = new Set([...TS_FENCES, 'js', 'javascript', 'mjs']);
const SHELL_FENCES = new Set(['sh', 'bash', 'shell', 'console']);
const INSTALL_COMMAND = /^(?:\$\s*)?(?:npm\s+(?:i|install|add)|pnpm\s+(?:add|i|install)|yarn\s+add)\s+(.*)$/;

/** Every problem of the README at `readmeUrl`; an empty list when a reader can copy it as is. */
export function checkReadme(readmeUrl: URL): string[] {
  const path = fileURLToPath(readmeUrl);
  const fences = fencedBlocks(readFileSync(path, 'utf8'));
  const installed = installedPackages(fences);
  const name = path.slice(REPO_ROOT.length);
  const problems: string[] = [];
  for (const fence of fences.filter((f) => CODE_FENCES.has(f.lang))) {
    for (const { pkg, line } of importedPackages(fence.code)) {
      if (!installed.includes(pkg)) {
        problems.push(
          `${name}:${fence.line + line} the example imports ${pkg}, which no install line of the README ` +
            `names (it installs: ${installed.join(', ') || 'nothing; add a ```sh block with npm i <packages>'})`,
        );
      }
    }
  }
  const tsBlocks = fences.filter((f) => TS_FENCES.has(f.lang));
  return [...problems, ...typecheckBlocks(path, tsBlocks, installed)];
}

/** The README's fenced blocks with their language and the line their code starts on. */
export function fencedBlocks(readme: string): Fence[] {
  const fences: Fence[] = [];
  const lines = readme.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*$/.exec(lines[i] ?? '');
    if (!open) continue;
    const end = lines.findIndex((line, j) => j > i && line.startsWith('```'));
    if (end < 0) throw new Error(`the fence at line ${i + 1} is never closed`);
    fences.push({ lang: open[1] ?? '', line: i + 2, code: `${lines.slice(i + 1, end).join('\n')}\n` });
    i = end;
  }
  return fences;
}

/** Package names on the install lines of shell blocks (flags and versions left out). */
export function installedPackages(fences: Fence[]): string[] {
  const names = new Set<string>();
  for (const fence of fences.filter((f) => SHELL_FENCES.has(f.lang))) {
    for (const line of fence.code.split('\n')) {
      const command = INSTALL_COMMAND.exec(line.trim());
      if (!command) continue;
      for (const word of (command[1] ?? '').split(/\s+/)) {
        if (word === '&&' || word === ';' || word === '|' || word.startsWith('#')) break;
        if (word === '' || word.startsWith('-')) continue;
        names.add(word.replace(/^(@?[^@]+)@.*$/, '$1'));
      }
    }
  }
  return [...names];
}

/**
 * Packages a block imports (statically, dynamically or as types), with the 0-based line of the
 * import; no builtins, no relative paths.
 */
export function importedPackages(code: string): { pkg: string; line: number }[] {
  const found: { pkg: string; line: number }[] = [];
  for (const { fileName, pos } of ts.preProcessFile(code, true, true).importedFiles) {
    if (fileName.startsWith('.') || fileName.startsWith('/') || isBuiltin(fileName)) continue;
    const parts = fileName.split('/');
    const pkg = fileName.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? fileName);
    if (!found.some((seen) => seen.pkg === pkg)) {
      found.push({ pkg, line: code.slice(0, pos).split('\n').length - 1 });
    }
  }
  return found;
}
