export type Json = Record<string, unknown>;

export const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const objects = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isObject) : []);
