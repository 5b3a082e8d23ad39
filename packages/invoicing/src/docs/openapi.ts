// The OpenAPI 3.1 contract, generated from the registry and the same zod schemas that validate
// request bodies: a resource, column or type added to the database appears here by itself.
import { z } from 'zod';
import { EXPECTATION, bodySchema, columnSchema, rowSchema } from '../engine/schemas.ts';
import { MAX_BULK } from '../engine/body.ts';
import { addMemberBody, createCompanyBody } from '../companies.ts';
import { columnKind } from '../query/column-kind.ts';
import { DEFAULT_LIMIT, MAX_LIMIT } from '../query/list-query.ts';
import { OPS_BY_KIND } from '../query/query-parser.ts';
import type { Resource } from '../registry/types.ts';
import { reports } from '../reports/reports.ts';

type Json = Record<string, unknown>;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** A `format` says it already: zod's long date/uuid regexes would only bloat the document. */
function dropFormatPatterns(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(dropFormatPatterns);
  if (node === null || typeof node !== 'object') return;
  const obj = node as Json;
  if (typeof obj.format === 'string' && typeof obj.pattern === 'string') delete obj.pattern;
  Object.values(obj).forEach(dropFormatPatterns);
}

/** zod → JSON Schema 2020-12 (what OpenAPI 3.1 uses), without the per-document `$schema`. */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output' = 'output'): Json {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Json;
  dropFormatPatterns(rest);
  return rest;
}

/** 'invoice-items' → 'InvoiceItem' (schema names). */
export function schemaName(resource: Resource): string {
  const words = resource.path.split('-').map((w) => w[0].toUpperCase() + w.slice(1));
  const last = words.length - 1;
  words[last] = words[last].replace(/ies$/, 'y').replace(/(?<!s)s$/, '');
  return words.join('');
}

const errorRef = (description: string) => ({ description, content: { 'application/json': { schema: ref('Error') } } });

const ERROR_RESPONSES = {
  BadRequest: errorRef('Bad request: invalid parameter, validation error or database constraint'),
  Unauthorized: errorRef('Missing, invalid or expired bearer token'),
  Forbidden: errorRef('No membership in the active company, or a row-level denial'),
  NotFound: errorRef('Unknown resource or row'),
  MethodNotAllowed: errorRef('Method not allowed (e.g. a write to a read-only resource)'),
  ServerError: errorRef('Unexpected server error'),
};

const errors = (...codes: (400 | 401 | 403 | 404 | 405)[]) => {
  const names = { 400: 'BadRequest', 401: 'Unauthorized', 403: 'Forbidden', 404: 'NotFound', 405: 'MethodNotAllowed' };
  const out: Json = {};
  for (const code of codes) out[code] = { $ref: `#/components/responses/${names[code]}` };
  out['500'] = { $ref: '#/components/responses/ServerError' };
  return out;
};

const LIST_PARAMETERS: Json = {
  limit: { name: 'limit', in: 'query', description: `Page size (default ${DEFAULT_LIMIT}, max ${MAX_LIMIT}; larger values are capped).`, schema: { type: 'integer', minimum: 1, default: DEFAULT_LIMIT } },
  per_page: { name: 'per_page', in: 'query', description: 'Alias of limit.', schema: { type: 'integer', minimum: 1 } },
  offset: { name: 'offset', in: 'query', description: 'Rows to skip.', schema: { type: 'integer', minimum: 0, default: 0 } },
  page: { name: 'page', in: 'query', description: '1-based page number (alternative to offset).', schema: { type: 'integer', minimum: 1 } },
  sort: { name: 'sort', in: 'query', description: 'Comma list of columns; prefix `-` for descending, e.g. `-date,invoice_number`.', schema: { type: 'string' } },
  order: { name: 'order', in: 'query', description: 'Legacy single-column sort: the column.', schema: { type: 'string' } },
  dir: { name: 'dir', in: 'query', description: 'Legacy sort direction.', schema: { type: 'string', enum: ['asc', 'desc'] } },
  search: { name: 'search', in: 'query', description: "Case-insensitive partial match on the resource's search columns.", schema: { type: 'string' } },
  from: { name: 'from', in: 'query', description: 'Inclusive start date (YYYY-MM-DD) on date_field.', schema: { type: 'string', format: 'date' } },
  to: { name: 'to', in: 'query', description: 'Inclusive end date (YYYY-MM-DD) on date_field.', schema: { type: 'string', format: 'date' } },
  date_field: { name: 'date_field', in: 'query', description: 'Date or timestamp column that from/to apply to (default `date`).', schema: { type: 'string' } },
  select: { name: 'select', in: 'query', description: 'Comma list of columns to return.', schema: { type: 'string' } },
  count: { name: 'count', in: 'query', description: '`none` skips the total count (meta.count is null).', schema: { type: 'string', enum: ['none', 'exact'] } },
};

const SUFFIX_HELP =
  'Any column is also an exact-match filter (`?status=unpaid`), and takes a suffix: `__neq`, `__gt`, `__gte`, `__lt`, `__lte`, ' +
  '`__like` (contains, case-insensitive), `__starts`, `__ends`, `__in` (comma list), `__null` (true/false). ' +
  'Array columns match by element. Values are checked against the column type (400 naming the parameter).';

function filterParameters(resource: Resource): Json[] {
  return resource.columns.map((col) => {
    const kind = columnKind(col);
    const ops = [...OPS_BY_KIND[kind]].filter((op) => op !== 'eq').map((op) => `__${op}`);
    return {
      name: col.name,
      in: 'query',
      required: false,
      description: `Exact match on ${col.name} (${EXPECTATION[kind]}). Suffixes: ${ops.join(' ')}.`,
      schema: kind === 'json' || kind === 'array' ? { type: 'string' } : jsonSchema(columnSchema({ ...col, nullable: false }, 'output')),
    };
  });
}

const idParameter = (resource: Resource) => ({
  name: 'id', in: 'path', required: true, description: `Id of the ${resource.path} row.`, schema: { type: 'string', format: 'uuid' },
});

const dataOf = (schema: Json) => ({
  type: 'object', required: ['data'], properties: { data: schema },
});

const json = (schema: Json, description: string) => ({ description, content: { 'application/json': { schema } } });

function resourcePaths(resource: Resource): Json {
  const name = schemaName(resource);
  const tag = resource.path;
  const base = `/v1/${resource.path}`;
  const listOp: Json = {
    tags: [tag],
    operationId: `list_${resource.path.replace(/-/g, '_')}`,
    summary: `List ${resource.path}`,
    description: `${resource.description}\n\n${SUFFIX_HELP}\n\nSearch columns: ${resource.searchColumns.join(', ') || 'none'}. ` +
      `Default sort: ${resource.defaultSort.map((k) => (k.desc ? '-' : '') + k.column).join(',') || 'id'} (then id).`,
    parameters: [
      ...Object.keys(LIST_PARAMETERS).map((p) => ({ $ref: `#/components/parameters/${p}` })),
      ...filterParameters(resource),
    ],
    responses: {
      200: json({ type: 'object', required: ['data', 'meta'], properties: { data: { type: 'array', items: ref(name) }, meta: ref('ListMeta') } }, `A page of ${resource.path}`),
      ...errors(400, 401, 403, 404),
    },
  };
  const getOp: Json = {
    tags: [tag], operationId: `get_${resource.path.replace(/-/g, '_')}`, summary: `Get one ${resource.path} row`,
    parameters: [idParameter(resource)],
    responses: { 200: json(dataOf(ref(name)), 'The row'), ...errors(400, 401, 403, 404) },
  };
  const paths: Json = { [base]: { get: listOp }, [`${base}/{id}`]: { get: getOp } };
  if (resource.readOnly) return paths;

  const id = resource.path.replace(/-/g, '_');
  (paths[base] as Json).post = {
    tags: [tag], operationId: `create_${id}`, summary: `Create ${resource.path} (one row, or up to ${MAX_BULK} in one all-or-nothing call)`,
    requestBody: {
      required: true,
      content: { 'application/json': { schema: { oneOf: [ref(`${name}Create`), { type: 'array', items: ref(`${name}Create`), minItems: 1, maxItems: MAX_BULK }] } } },
    },
    responses: {
      201: json(dataOf({ oneOf: [ref(name), { type: 'array', items: ref(name) }] }), 'The created row (an array for an array body)'),
      ...errors(400, 401, 403, 404, 405),
    },
  };
  Object.assign(paths[`${base}/{id}`] as Json, {
    patch: {
      tags: [tag], operationId: `update_${id}`, summary: `Change fields of one ${resource.path} row`,
      parameters: [idParameter(resource)],
      requestBody: { required: true, content: { 'application/json': { schema: ref(`${name}Patch`) } } },
      responses: { 200: json(dataOf(ref(name)), 'The updated row'), ...errors(400, 401, 403, 404, 405) },
    },
    delete: {
      tags: [tag], operationId: `delete_${id}`, summary: `Delete one ${resource.path} row`,
      parameters: [idParameter(resource)],
      responses: { 200: json(dataOf(ref(name)), 'The deleted row'), ...errors(400, 401, 403, 404, 405) },
    },
  });
  return paths;
}

const anyObject = { type: 'object', additionalProperties: true };

function servicePaths(resources: Resource[]): Json {
  const invoices = resources.find((r) => r.path === 'invoices');
  const lines = resources.find((r) => r.path === 'invoice-items');
  const paths: Json = {
    '/v1/health': {
      get: {
        tags: ['service'], operationId: 'health', summary: 'Liveness probe', security: [],
        responses: { 200: json({ type: 'object', properties: { status: { type: 'string', const: 'ok' } }, required: ['status'] }, 'Alive'), ...errors() },
      },
    },
    '/v1/openapi.json': {
      get: { tags: ['service'], operationId: 'openapi', summary: 'This OpenAPI document', security: [], responses: { 200: json(anyObject, 'OpenAPI 3.1'), ...errors() } },
    },
    '/v1/docs': {
      get: {
        tags: ['service'], operationId: 'docs', summary: 'Rendered API reference', security: [],
        responses: { 200: { description: 'HTML page', content: { 'text/html': { schema: { type: 'string' } } } }, ...errors() },
      },
    },
    '/v1/me': {
      get: {
        tags: ['account'], operationId: 'me', summary: 'The caller: identity, profile, active company, memberships and permissions',
        responses: { 200: json(dataOf(ref('Me')), 'The caller'), ...errors(400, 401, 403) },
      },
    },
    '/v1/companies': {
      get: {
        tags: ['account'], operationId: 'list_companies', summary: 'Companies the caller belongs to',
        responses: { 200: json(dataOf({ type: 'array', items: ref('Company') }), 'Companies'), ...errors(401) },
      },
      post: {
        tags: ['account'], operationId: 'create_company', summary: 'Create a company owned by the caller (with its business profile)',
        requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(createCompanyBody, 'input') } } },
        responses: { 201: json(dataOf(ref('Company')), 'The new company'), ...errors(400, 401) },
      },
    },
    '/v1/companies/{id}/members': {
      post: {
        tags: ['account'], operationId: 'add_company_member', summary: 'Add an existing user to a company (owner or admin)',
        parameters: [{ name: 'id', in: 'path', required: true, description: 'Company id.', schema: { type: 'string', format: 'uuid' } }],
        requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(addMemberBody, 'input') } } },
        responses: { 201: json(dataOf(anyObject), 'The membership'), ...errors(400, 401, 403, 404) },
      },
    },
  };
  if (invoices && lines) {
    paths['/v1/invoices/{id}/items'] = {
      get: {
        tags: ['invoices'], operationId: 'list_invoice_lines', summary: 'Line items of one invoice (list parameters apply)',
        parameters: [idParameter(invoices), ...Object.keys(LIST_PARAMETERS).map((p) => ({ $ref: `#/components/parameters/${p}` }))],
        responses: {
          200: json({ type: 'object', required: ['data', 'meta'], properties: { data: { type: 'array', items: ref(schemaName(lines)) }, meta: ref('ListMeta') } }, 'The lines'),
          ...errors(400, 401, 403, 404),
        },
      },
    };
    const lineCreate = jsonSchema(bodySchema(lines, 'create'), 'input') as { properties?: Json; required?: string[] };
    delete lineCreate.properties?.invoice_id;
    lineCreate.required = lineCreate.required?.filter((r) => r !== 'invoice_id');
    const invoiceCreate = jsonSchema(bodySchema(invoices, 'create'), 'input') as { properties: Json; required?: string[] };
    paths['/v1/invoices/with-items'] = {
      post: {
        tags: ['invoices'], operationId: 'create_invoice_with_items', summary: 'Create an invoice and its lines in one transaction',
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { ...invoiceCreate, properties: { ...invoiceCreate.properties, items: { type: 'array', maxItems: MAX_BULK, items: lineCreate } }, required: [...(invoiceCreate.required ?? []), 'items'] } } },
        },
        responses: {
          201: json(dataOf({ allOf: [ref(schemaName(invoices)), { type: 'object', properties: { items: { type: 'array', items: ref(schemaName(lines)) } }, required: ['items'] }] }), 'The invoice with its lines'),
          ...errors(400, 401, 403),
        },
      },
    };
  }
  return paths;
}

/** GET /v1/reports/<name> for each report, its query parameters read off its zod schema. */
function reportPaths(): Json {
  const paths: Json = {};
  for (const [name, report] of Object.entries(reports)) {
    const params = jsonSchema(report.params, 'input') as { properties?: Record<string, Json>; required?: string[] };
    paths[`/v1/reports/${name}`] = {
      get: {
        tags: ['reports'], operationId: `report_${name.replace(/-/g, '_')}`, summary: `The ${name} report of the active company`,
        description: report.description,
        parameters: Object.entries(params.properties ?? {}).map(([param, schema]) => ({
          name: param, in: 'query', required: params.required?.includes(param) ?? false, schema,
        })),
        responses: { 200: json(dataOf(anyObject), `The ${name} report`), ...errors(400, 401, 403, 404) },
      },
    };
  }
  return paths;
}

/** The choices the GST rules make where the domain guide allows several (README: "Invoicing rules"). */
const RULES_DESCRIPTION = [
  'Business rules, enforced in the database for every path:',
  '- Line money is computed from qty, rate, discount and gst_rate (half-up to 2 decimals per line; `price_incl_tax` lines are tax-inclusive); CGST+SGST when the place of supply equals the business state, IGST otherwise (and for SEZ/overseas parties).',
  '- Invoice subtotal, tax heads, round_off (when the business profile enables it) and total always come from the lines; an invoice with no lines keeps the totals sent. `status` is derived from amount_paid (unpaid/partial/paid) and never taken from the client.',
  '- amount_paid sent on an invoice is money received with the sale; payments add to it (invoice_id, else allocations, else oldest first) and editing or deleting a payment reverses them. Expense payments may not exceed the expense total.',
  '- Stock moves with sales (−), purchases (+) and their returns, delivery challans (when settings.challan_reduces_stock) and stock adjustments. Negative stock is allowed unless settings.allow_negative_stock is false.',
  '- A return (sale_return, purchase_return) must name original_invoice_id. GST rates must be a legal slab (0, 0.1, 0.25, 3, 5, 12, 18, 28, 40).',
].join('\n');

export function openApiDocument(resources: Resource[]): Json {
  const schemas: Json = {
    Error: {
      type: 'object', required: ['error'],
      properties: { error: { type: 'object', required: ['message', 'status'], properties: { message: { type: 'string' }, status: { type: 'integer' } } } },
    },
    ListMeta: {
      type: 'object', required: ['count', 'limit', 'offset', 'page'],
      properties: { count: { type: ['integer', 'null'], description: 'Total matching rows; null with count=none' }, limit: { type: 'integer' }, offset: { type: 'integer' }, page: { type: 'integer' } },
    },
    Company: {
      type: 'object', required: ['id', 'name'],
      properties: { id: { type: 'string', format: 'uuid' }, name: { type: 'string' }, role: { type: 'string' }, is_active: { type: 'boolean' }, created_at: { type: 'string', format: 'date-time' } },
    },
    Me: {
      type: 'object', required: ['user', 'companyId', 'memberships', 'permissions'],
      properties: {
        user: anyObject, profile: anyObject,
        companyId: { type: ['string', 'null'], format: 'uuid' },
        company: { oneOf: [anyObject, { type: 'null' }] },
        memberships: { type: 'array', items: anyObject },
        permissions: { type: 'object', additionalProperties: { type: 'object', properties: { read: { type: 'boolean' }, write: { type: 'boolean' } } } },
      },
    },
  };
  let paths: Json = { ...servicePaths(resources), ...reportPaths() };
  for (const resource of resources) {
    const name = schemaName(resource);
    schemas[name] = { ...jsonSchema(rowSchema(resource)), description: resource.description };
    if (!resource.readOnly) {
      schemas[`${name}Create`] = jsonSchema(bodySchema(resource, 'create'), 'input');
      schemas[`${name}Patch`] = jsonSchema(bodySchema(resource, 'patch'), 'input');
    }
    paths = { ...paths, ...resourcePaths(resource) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Invoicing API',
      version: '1.0.0',
      description: 'Company-scoped business records: parties, items, invoices, payments, expenses, documents, restaurant and store records, webhooks and logs. ' +
        'Every list takes the same query language; every error is `{error: {message, status}}`.\n\n' + RULES_DESCRIPTION,
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: '/', description: 'This service (paths start with /v1; /api/v1 works too)' }],
    security: [{ bearerAuth: [], apikey: [] }],
    tags: [
      { name: 'service', description: 'Public endpoints' },
      { name: 'account', description: 'The caller and their companies' },
      { name: 'reports', description: 'Aggregates over the active company (RLS applied)' },
      ...resources.map((r) => ({ name: r.path, description: r.description + (r.readOnly ? ' (read-only)' : '') })),
    ],
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The user access token.' },
        apikey: { type: 'apiKey', in: 'header', name: 'apikey', description: 'The project publishable key.' },
      },
      parameters: LIST_PARAMETERS,
      responses: ERROR_RESPONSES,
      schemas,
    },
  };
}
