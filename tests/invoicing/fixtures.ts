// A hand-made registry entry for the pure tests: they must not depend on the migrated schema.
import type { GeneratedColumn, Resource } from '../../packages/invoicing/src/registry/types.ts';

const col = (name: string, type: string, extra: Partial<GeneratedColumn> = {}): GeneratedColumn => ({
  name,
  type,
  nullable: true,
  hasDefault: false,
  generated: false,
  ...extra,
});

export const invoicesFixture: Resource = {
  path: 'invoices',
  table: 'invoices',
  searchColumns: ['invoice_number', 'party_name'],
  defaultSort: [
    { column: 'date', desc: true },
    { column: 'created_at', desc: true },
  ],
  readOnly: false,
  description: 'Invoices',
  columns: [
    col('id', 'uuid', { nullable: false, hasDefault: true }),
    col('company_id', 'uuid', { nullable: false, hasDefault: true }),
    col('type', 'text', { nullable: false, enumValues: ['sale', 'purchase', 'sale_return', 'purchase_return'] }),
    col('status', 'text', { nullable: false, hasDefault: true, enumValues: ['unpaid', 'partial', 'paid'] }),
    col('invoice_number', 'text'),
    col('date', 'date', { nullable: false, hasDefault: true }),
    col('party_id', 'uuid'),
    col('party_name', 'text', { nullable: false }),
    col('party_state', 'text'),
    col('place_of_supply', 'bpchar', { maxLength: 2 }),
    col('total', 'numeric', { nullable: false, hasDefault: true, precision: 14, scale: 2 }),
    col('round_off', 'numeric', { precision: 6, scale: 2 }),
    col('balance', 'numeric', { generated: true, precision: 14, scale: 2 }),
    col('is_reverse_charge', 'bool', { nullable: false, hasDefault: true }),
    col('credit_days', 'int4'),
    col('tags', '_text', { hasDefault: true }),
    col('meta', 'jsonb'),
    col('created_at', 'timestamptz', { nullable: false, hasDefault: true }),
    col('updated_at', 'timestamptz', { nullable: false, hasDefault: true }),
  ],
};

export const unitsFixture: Resource = {
  path: 'units',
  table: 'units',
  searchColumns: ['name'],
  defaultSort: [{ column: 'name', desc: false }],
  readOnly: false,
  description: 'Units',
  columns: [
    col('id', 'uuid', { nullable: false, hasDefault: true }),
    col('company_id', 'uuid', { nullable: false, hasDefault: true }),
    col('name', 'text', { nullable: false }),
    col('created_at', 'timestamptz', { nullable: false, hasDefault: true }),
  ],
};
