import { CACHE_BACKENDS, REDIS_URL_ALLOWED, SESSION_STORES } from '@agent/cache';
import { TRACE_SAMPLERS } from '@agent/telemetry/export';
import { posInt, type Schema, str, TTL } from './schema-parts.js';

// The schemas of agent.json's store and observability sections: `cache`, `sessions`,
// `persistence` (docs/observability.md) and `telemetry`.

export const CACHE: Schema = {
  type: 'object',
  properties: {
    backend: { enum: [...CACHE_BACKENDS], 'x-expects': `one of ${CACHE_BACKENDS.join(', ')}` },
    path: { type: 'string', minLength: 1, 'x-expects': 'a file path (sqlite)' },
    url: str(REDIS_URL_ALLOWED),
    maxEntries: posInt('a positive integer (entries)'),
  },
  additionalProperties: false,
  'x-expects': 'an object { backend, path | url, maxEntries }',
};

export const SESSIONS: Schema = {
  type: 'object',
  properties: {
    store: { enum: [...SESSION_STORES], 'x-expects': `one of ${SESSION_STORES.join(', ')}` },
    path: { type: 'string', minLength: 1, 'x-expects': 'a file path (sqlite)' },
    url: str(REDIS_URL_ALLOWED),
    ttl: TTL,
    snapshotKey: { type: 'string', minLength: 32, 'x-expects': 'a key of at least 32 characters' },
    previousSnapshotKeys: {
      type: 'array',
      items: { type: 'string', minLength: 32, 'x-expects': 'a key of at least 32 characters' },
      'x-expects': 'a list of keys of at least 32 characters',
    },
  },
  additionalProperties: false,
  'x-expects': 'an object { store, path | url, ttl, snapshotKey, previousSnapshotKeys }',
};

const SAMPLER_NAME: Schema = {
  enum: [...TRACE_SAMPLERS],
  'x-expects': `one of ${TRACE_SAMPLERS.join(', ')}`,
};

export const TELEMETRY: Schema = {
  type: 'object',
  properties: {
    otlp: {
      type: 'object',
      properties: {
        endpoint: {
          type: 'string',
          pattern: '^https?://',
          'x-expects': 'an http(s) URL (the OTLP/HTTP base URL)',
        },
        headers: {
          type: 'object',
          additionalProperties: str('a header value'),
          'x-expects': 'an object of header names to values',
        },
      },
      additionalProperties: false,
      'x-expects': 'an object { endpoint, headers }',
    },
    sampler: {
      oneOf: [
        SAMPLER_NAME,
        {
          type: 'object',
          properties: {
            type: SAMPLER_NAME,
            ratio: { type: 'number', minimum: 0, maximum: 1, 'x-expects': 'a number from 0 to 1' },
          },
          required: ['type'],
          additionalProperties: false,
        },
      ],
      'x-expects': `a sampler name (${TRACE_SAMPLERS.join(', ')}) or { type, ratio }`,
    },
    serviceName: { type: 'string', minLength: 1, 'x-expects': 'a service name' },
  },
  additionalProperties: false,
  'x-expects': 'an object { otlp: { endpoint, headers }, sampler, serviceName }',
};

export const PERSISTENCE: Schema = {
  type: 'object',
  properties: {
    sessionsDir: { type: 'string', minLength: 1, 'x-expects': 'a directory path' },
    billingFile: { type: 'string', minLength: 1, 'x-expects': 'a file path (JSON lines)' },
  },
  additionalProperties: false,
  'x-expects': 'an object { sessionsDir?, billingFile? }',
};
