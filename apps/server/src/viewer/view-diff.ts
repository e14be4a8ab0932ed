import { createHash } from 'node:crypto';
import type { SessionSummary, SessionView, ViewNode } from './view-model.js';
import { headOf, type ListPatch, type PatchedNode, type SessionPatch } from './view-patch.js';

/** One update of a live stream: an SSE event name and its data. */
export type StreamUpdate =
  | { event: 'list'; data: readonly SessionSummary[] }
  | { event: 'list-patch'; data: ListPatch }
  | { event: 'session'; data: SessionView }
  | { event: 'session-patch'; data: SessionPatch };

const fingerprint = (text: string) => createHash('sha1').update(text).digest('base64');

/** The fields that can be long (folded to `foldChars`): sent again only when they change. */
const LONG_FIELDS = ['arguments', 'result'] as const;

/** What a reader was sent of one node: its parent, and fingerprints of its short and long fields. */
interface NodeMark {
  parent: string | undefined;
  short: string;
  long: string[];
}

function nodeMark(fields: Omit<ViewNode, 'children'>, parent: string | undefined): NodeMark {
  const { arguments: _args, result: _result, ...short } = fields;
  return {
    parent,
    short: fingerprint(JSON.stringify(short)),
    long: LONG_FIELDS.map((key) => fingerprint(fields[key] ?? '')),
  };
}

/**
 * The node as a patch carries it (its long fields only when they changed), or `'whole'` when a
 * patch cannot say the change (the node moved, or a long field was cleared), or undefined when
 * the reader has it as it is.
 */
function nodeChange(
  fields: Omit<ViewNode, 'children'>,
  mark: NodeMark,
  before: NodeMark | undefined,
): PatchedNode | 'whole' | undefined {
  const patched: PatchedNode = { ...fields, ...(mark.parent === undefined ? {} : { parent: mark.parent }) };
  if (before === undefined) return patched;
  if (before.parent !== mark.parent) return 'whole';
  let same = before.short === mark.short;
  for (const [i, key] of LONG_FIELDS.entries()) {
    if (before.long[i] === mark.long[i]) delete patched[key];
    else if (fields[key] === undefined) return 'whole';
    else same = false;
  }
  return same ? undefined : patched;
}

/**
 * What one reader of a watched session has been sent, as fingerprints per node (not a copy: a
 * few dozen bytes a node), so each update carries only the nodes that changed.
 */
export class SessionDiff {
  private viewId: string | undefined;
  private head: string | undefined;
  private sent = new Map<string, NodeMark>();

  /** The whole view the first time (or when its tree was rebuilt), else what changed; undefined: nothing. */
  next(view: SessionView): StreamUpdate | undefined {
    const head = JSON.stringify(headOf(view));
    const changed: PatchedNode[] = [];
    const seen = new Map<string, NodeMark>();
    let whole = this.viewId !== view.id;
    for (const { node, parent } of preorder(view.tree)) {
      const { children: _children, ...fields } = node;
      const mark = nodeMark(fields, parent);
      seen.set(node.id, mark);
      const change = nodeChange(fields, mark, this.sent.get(node.id));
      if (change === 'whole') whole = true;
      else if (change !== undefined) changed.push(change);
    }
    whole ||= [...this.sent.keys()].some((id) => !seen.has(id));
    const headChanged = head !== this.head;
    this.viewId = view.id;
    this.head = head;
    this.sent = seen;
    if (whole) return { event: 'session', data: view };
    if (changed.length === 0 && !headChanged) return undefined;
    return {
      event: 'session-patch',
      data: { ...(headChanged ? { head: headOf(view) } : {}), nodes: changed },
    };
  }
}

/** What one reader has been sent of the session list: each line's JSON, and the order. */
export class ListDiff {
  private sent: Map<string, string> | undefined;
  private order = '';

  /** The whole list the first time, else the lines that changed; undefined: nothing changed. */
  next(list: readonly SessionSummary[]): StreamUpdate | undefined {
    const lines = new Map(list.map((line) => [line.id, JSON.stringify(line)]));
    const order = list.map((line) => line.id).join('\n');
    const before = this.sent;
    const orderChanged = order !== this.order;
    this.sent = lines;
    this.order = order;
    if (before === undefined) return { event: 'list', data: list };
    const upsert = list.filter((line) => before.get(line.id) !== lines.get(line.id));
    const remove = [...before.keys()].filter((id) => !lines.has(id));
    if (upsert.length === 0 && remove.length === 0 && !orderChanged) return undefined;
    const patch: ListPatch = {
      upsert,
      remove,
      ...(orderChanged ? { order: list.map((line) => line.id) } : {}),
    };
    return { event: 'list-patch', data: patch };
  }
}

/** Every node with its parent's id, parents before children and siblings in order; no recursion. */
function* preorder(root: ViewNode): Generator<{ node: ViewNode; parent: string | undefined }> {
  const stack: { node: ViewNode; parent: string | undefined }[] = [{ node: root, parent: undefined }];
  while (stack.length > 0) {
    const entry = stack.pop() as { node: ViewNode; parent: string | undefined };
    yield entry;
    for (let i = entry.node.children.length - 1; i >= 0; i -= 1) {
      stack.push({ node: entry.node.children[i] as ViewNode, parent: entry.node.id });
    }
  }
}
