// The catalog as an OpenAPI 3.1 document: one path item per path, its operations tagged with
// their domain, path and query parameters as parameters and the body ones as a JSON object body.
import type { CatalogOperation, CatalogParameter } from './catalog.js';

type Schema = Record<string, unknown>;

function schemaOf(parameter: CatalogParameter): Schema {
  return {
    type: parameter.type,
    description: parameter.description,
    ...(parameter.enum === undefined ? {} : { enum: parameter.enum }),
  };
}

function operationObject(operation: CatalogOperation): Schema {
  const inUrl = operation.parameters.filter((p) => p.in !== 'body');
  const inBody = operation.parameters.filter((p) => p.in === 'body');
  const body: Schema = {
    type: 'object',
    properties: Object.fromEntries(inBody.map((p) => [p.name, schemaOf(p)])),
    ...(inBody.some((p) => p.required)
      ? { required: inBody.filter((p) => p.required).map((p) => p.name) }
      : {}),
  };
  return {
    operationId: operation.id,
    summary: operation.summary,
    tags: [operation.tag],
    ...(inUrl.length === 0
      ? {}
      : {
          parameters: inUrl.map((p) => ({
            name: p.name,
            in: p.in,
            required: p.required,
            description: p.description,
            schema: { type: p.type },
          })),
        }),
    ...(inBody.length === 0
      ? {}
      : {
          requestBody: {
            required: inBody.some((p) => p.required),
            content: { 'application/json': { schema: body } },
          },
        }),
    responses: { '200': { description: 'Done.' } },
  };
}

/** The document of `operations`, served at `baseUrl`. */
export function catalogDocument(operations: readonly CatalogOperation[], baseUrl: string): Schema {
  const paths: Record<string, Record<string, Schema>> = {};
  for (const operation of operations) {
    const item = paths[operation.path] ?? {};
    item[operation.method.toLowerCase()] = operationObject(operation);
    paths[operation.path] = item;
  }
  const tags = [...new Set(operations.map((o) => o.tag))].map((name) => ({ name }));
  return {
    openapi: '3.1.0',
    info: { title: 'Company services (generated)', version: '1' },
    servers: [{ url: baseUrl }],
    tags,
    paths,
  };
}
