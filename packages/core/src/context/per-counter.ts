/**
 * Caches kept per counting function, made on first use: a count made by one tokenizer holds
 * for every session that uses it (a provider gives all its clients of one tokenizer the same
 * `countTokens`).
 */
export class PerCounter<C> {
  private readonly caches = new WeakMap<object, C>();

  constructor(private readonly make: () => C) {}

  for(counter: object): C {
    let cache = this.caches.get(counter);
    if (cache === undefined) {
      cache = this.make();
      this.caches.set(counter, cache);
    }
    return cache;
  }
}

/** Sets a count in a map kept to `limit` entries: the oldest goes first. */
export function setBounded<V>(map: Map<string, V>, key: string, value: V, limit: number): void {
  if (map.size >= limit) map.delete(map.keys().next().value as string);
  map.set(key, value);
}
