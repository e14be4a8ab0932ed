// The TypeScript type a JSON Schema literal describes, for `tool()` arguments given as a JSON
// Schema. Covers what tool parameters use: objects with `properties` and `required`, strings,
// numbers and integers, booleans, null, arrays with `items`, `enum`, `const` and `anyOf`/`oneOf`.
// Anything else is `unknown`.

type Simplify<T> = { [K in keyof T]: T[K] } & {};

type Primitive<T> = T extends 'string'
  ? string
  : T extends 'number' | 'integer'
    ? number
    : T extends 'boolean'
      ? boolean
      : T extends 'null'
        ? null
        : never;

type ObjectOf<P, R extends PropertyKey> = Simplify<
  { -readonly [K in keyof P & R]: FromJsonSchema<P[K]> } & {
    -readonly [K in Exclude<keyof P, R>]?: FromJsonSchema<P[K]>;
  }
>;

export type FromJsonSchema<S> = S extends { const: infer C }
  ? C
  : S extends { enum: readonly (infer E)[] }
    ? E
    : S extends { anyOf: readonly (infer A)[] }
      ? FromJsonSchema<A>
      : S extends { oneOf: readonly (infer O)[] }
        ? FromJsonSchema<O>
        : S extends { type: 'array'; items: infer I }
          ? FromJsonSchema<I>[]
          : S extends { type: 'array' }
            ? unknown[]
            : S extends { type: 'object'; properties: infer P }
              ? ObjectOf<P, S extends { required: readonly (infer R extends PropertyKey)[] } ? R : never>
              : S extends { type: 'object' }
                ? Record<string, unknown>
                : S extends { type: infer T extends string }
                  ? Primitive<T>
                  : unknown;
