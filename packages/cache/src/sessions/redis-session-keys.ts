import { isStoreId } from '@agent/protocol/util';

/**
 * Where a Redis session store keeps a session. On one server: the snapshot at `<prefix><id>`,
 * its turn journal at `<prefix><id>#journal` and `...#journal-bytes` (the layout stores written
 * before clusters were supported use: they load unchanged). On a cluster the id is a hash tag,
 * `<prefix>{<id>}` and `<prefix>{<id>}#journal...`, so a session's keys share one slot and its
 * MULTI and scripts run on one node. (`{`, `}` and `#` are in no session id.)
 */
export interface SessionKeyLayout {
  snapshot(id: string): string;
  journal(id: string): [list: string, bytes: string];
  /** The session id of a snapshot key found by SCAN, or undefined for any other key. */
  idOf(key: string): string | undefined;
}

export function sessionKeyLayout(prefix: string, cluster: boolean): SessionKeyLayout {
  const snapshot = (id: string) => (cluster ? `${prefix}{${id}}` : prefix + id);
  return {
    snapshot,
    journal(id) {
      const base = `${snapshot(id)}#journal`;
      return [base, `${base}-bytes`];
    },
    idOf(key) {
      if (!key.startsWith(prefix)) return undefined;
      let rest = key.slice(prefix.length);
      if (cluster) {
        if (!rest.startsWith('{') || !rest.endsWith('}')) return undefined;
        rest = rest.slice(1, -1);
      }
      return isStoreId(rest) ? rest : undefined;
    },
  };
}
