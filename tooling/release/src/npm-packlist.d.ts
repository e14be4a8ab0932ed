// npm-packlist 10 ships no types: the one call used here.
declare module 'npm-packlist' {
  import type { Node } from '@npmcli/arborist';
  export default function packlist(tree: Node, options?: { path?: string }): Promise<string[]>;
}
