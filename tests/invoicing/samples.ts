// Minimal valid bodies for every resource, derived from the registry (required columns get a
// value of their kind; foreign keys get a freshly created row of the resource they point to).
import { resources, findResource } from '../../packages/invoicing/src/registry/registry.ts';
import { isRequiredOnCreate, writableColumns } from '../../packages/invoicing/src/engine/schemas.ts';
import { columnKind } from '../../packages/invoicing/src/query/column-kind.ts';
import type { GeneratedColumn, Resource } from '../../packages/invoicing/src/registry/types.ts';
import type { InvoicingHarness, Persona } from './support.ts';

/** Foreign-key columns → the resource whose row they name. */
export const REFERENCES: Record<string, string> = {
  party_id: 'parties',
  item_id: 'items',
  invoice_id: 'invoices',
  document_id: 'documents',
  expense_id: 'expenses',
  store_order_id: 'store-orders',
  webhook_id: 'webhooks',
  area_id: 'restaurant-areas',
  table_id: 'restaurant-tables',
  category_id: 'categories',
  store_customer_id: 'store-customers',
};

/** Values a CHECK demands beyond the column's type. */
const SPECIAL: Record<string, unknown> = {
  url: 'https://example.com/hook',
  email: 'someone@example.com',
  hsn_code: '8471',
  gstin: '27AAPFU0939F1ZV',
};

/** Fields a resource's business rules need beyond its required columns. */
const RESOURCE_EXTRAS: Record<string, Record<string, unknown>> = {
  // an expense of 0 cannot take the sample expense-payment of 1
  expenses: { amount: 100 },
};

let n = 0;

export function sampleValue(col: GeneratedColumn): unknown {
  if (col.name in SPECIAL) return SPECIAL[col.name];
  if (col.enumValues?.length) return col.enumValues[0];
  switch (columnKind(col)) {
    case 'integer': return 1;
    case 'number': return 1;
    case 'boolean': return true;
    case 'date': return '2025-01-15';
    case 'timestamp': return '2025-01-15T10:00:00Z';
    case 'json': return {};
    case 'array': return [];
    case 'uuid': return undefined;
    default: return `${col.name} ${n++}`;
  }
}

/** Creates the rows a new `resource` row needs (its required references) and returns its body. */
export async function sampleBody(h: InvoicingHarness, who: Persona, resource: Resource): Promise<Record<string, unknown>> {
  const body: Record<string, unknown> = {};
  for (const col of writableColumns(resource, 'create').filter((c) => isRequiredOnCreate(c) && c.name !== 'id')) {
    const target = REFERENCES[col.name];
    if (target) body[col.name] = (await createSample(h, who, findResource(target)!)).id;
    else body[col.name] = sampleValue(col);
  }
  return { ...body, ...RESOURCE_EXTRAS[resource.path] };
}

export async function createSample(h: InvoicingHarness, who: Persona, resource: Resource): Promise<Record<string, any>> {
  const res = await h.call(`/${resource.path}`, { token: who.token, company: who.companyId, body: await sampleBody(h, who, resource) });
  if (res.status !== 201) throw new Error(`sample ${resource.path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** A field a PATCH can change with no side conditions: a free text column, else a number. */
export function patchableField(resource: Resource): { name: string; value: unknown } | undefined {
  const cols = writableColumns(resource, 'patch').filter((c) => !REFERENCES[c.name] && !(c.name in SPECIAL) && !c.enumValues);
  const text = cols.find((c) => columnKind(c) === 'text' && !c.maxLength);
  if (text) return { name: text.name, value: `changed ${n++}` };
  const num = cols.find((c) => columnKind(c) === 'number' || columnKind(c) === 'integer');
  return num ? { name: num.name, value: 2 } : undefined;
}

/** Resources with one row per company (UNIQUE(company_id)). */
export const SINGLETONS = new Set(['business-profile', 'store-settings']);

export { resources };
