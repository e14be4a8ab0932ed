/**
 * The descriptor of an own, enumerable getter, made once per class and defined on each
 * instance with `Object.defineProperty`: the instance reads like an object literal with that
 * getter (a spread copies it, the key comes first), without being one. V8 builds a literal with
 * a getter the slow way and keeps it in dictionary mode, which on a per-call object costs more
 * than the rest of it.
 */
export function ownGetter<T, V>(read: (self: T) => V): PropertyDescriptor {
  return {
    get(this: T): V {
      return read(this);
    },
    enumerable: true,
    configurable: true,
  };
}
