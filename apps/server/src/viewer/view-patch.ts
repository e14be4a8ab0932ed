import type { SessionSummary, SessionView, ViewNode } from './view-model.js';

// The live stream's deltas, and how a reader applies them. Shared by the server (which makes
// them, `view-diff.ts`) and the page (which applies them): no Node API here.

/**
 * A node as a patch carries it: its fields without its children, and its parent's id. A known
 * node takes these fields in place of its own, but keeps its `arguments` and `result` when the
 * patch leaves them out (they are long, and sent again only when they change).
 */
export type PatchedNode = Omit<ViewNode, 'children'> & { parent?: string };

/** A session's fields other than its tree. */
export type SessionHead = Omit<SessionView, 'tree'>;

/**
 * What changed in a watched session since the last update: its head when any of it changed
 * (sent whole: small), and the new and changed nodes, each parent before its children.
 */
export interface SessionPatch {
  head?: SessionHead;
  nodes: PatchedNode[];
}

/** What changed in the session list: new or changed lines, ids gone, and the order when it changed. */
export interface ListPatch {
  upsert: SessionSummary[];
  remove: string[];
  /** Every listed id, newest first; absent when the order is as before. */
  order?: string[];
}

/** The head of a view: everything but its tree. */
export function headOf(view: SessionView): SessionHead {
  const { tree: _tree, ...head } = view;
  return head;
}

/** `view` with `patch` applied (in place: nodes are only ever added or changed, never moved). */
export function applySessionPatch(view: SessionView, patch: SessionPatch): SessionView {
  const nodes = new Map<string, ViewNode>();
  const stack = [view.tree];
  while (stack.length > 0) {
    const node = stack.pop() as ViewNode;
    nodes.set(node.id, node);
    stack.push(...node.children);
  }
  for (const { parent, ...fields } of patch.nodes) {
    const known = nodes.get(fields.id);
    if (known !== undefined) {
      const { children, arguments: args, result } = known;
      for (const key of Object.keys(known)) delete (known as unknown as Record<string, unknown>)[key];
      Object.assign(
        known,
        args === undefined ? {} : { arguments: args },
        result === undefined ? {} : { result },
        fields,
        { children },
      );
      continue;
    }
    const node: ViewNode = { ...fields, children: [] };
    const under = parent === undefined ? undefined : nodes.get(parent);
    if (under === undefined) throw new Error(`a patch names node ${fields.id} under unknown ${parent}`);
    under.children.push(node);
    nodes.set(node.id, node);
  }
  return patch.head === undefined ? view : { ...patch.head, tree: view.tree };
}

/** `list` with `patch` applied. */
export function applyListPatch(list: readonly SessionSummary[], patch: ListPatch): SessionSummary[] {
  const byId = new Map(list.map((line) => [line.id, line]));
  for (const id of patch.remove) byId.delete(id);
  for (const line of patch.upsert) byId.set(line.id, line);
  const order = patch.order ?? list.map((line) => line.id);
  return order.flatMap((id) => {
    const line = byId.get(id);
    return line === undefined ? [] : [line];
  });
}
