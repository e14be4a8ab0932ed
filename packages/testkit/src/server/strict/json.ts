import { isRecord } from '@agent/protocol/util';
export type Json = Record<string, unknown>;

export const objects = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isRecord) : []);
