/** A generated OpenAPI document of `operations` operations over shared `$ref` schemas (tests, bench). */
export function largeDocument(operations: number, baseUrl = 'http://127.0.0.1:9'): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = {};
  for (let i = 0; i < operations / 2; i++) {
    schemas[`Item${i}`] = {
      type: 'object',
      properties: {
        id: { type: 'integer' },
        name: { type: 'string' },
        owner: { $ref: '#/components/schemas/Owner' },
      },
      required: ['name'],
    };
    paths[`/group${i % 50}/items${i}/{id}`] = {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
      get: {
        operationId: `getItem${i}`,
        summary: `Item ${i}`,
        tags: [`group${i % 50}`],
        parameters: [{ name: 'fields', in: 'query', schema: { type: 'array', items: { type: 'string' } } }],
      },
      put: {
        operationId: `putItem${i}`,
        summary: `Replace item ${i}`,
        tags: [`group${i % 50}`],
        requestBody: {
          content: { 'application/json': { schema: { $ref: `#/components/schemas/Item${i}` } } },
        },
      },
    };
  }
  schemas.Owner = { type: 'object', properties: { login: { type: 'string' }, team: { type: 'string' } } };
  return {
    openapi: '3.0.3',
    info: { title: 'Large', version: '1' },
    servers: [{ url: baseUrl }],
    paths,
    components: { schemas },
  };
}
