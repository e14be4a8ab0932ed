// The workspace's public packages (the ones `pnpm release` publishes): packages/* and apps/*
// without `private`.
import { REPO_ROOT, type WorkspacePackage, workspacePackageList } from '../../vitest/workspace-packages.js';

export const REPO = REPO_ROOT.replace(/\/$/, '');

export type PublicPackage = WorkspacePackage;

export function publicPackages(): PublicPackage[] {
  return workspacePackageList().filter(({ manifest }) => manifest.private !== true);
}
