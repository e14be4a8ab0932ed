/** A JSON Schema document (draft 2020-12 or draft-07), kept structural on purpose. */
export type JsonSchema = { [key: string]: unknown };

/** Any JSON value. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
