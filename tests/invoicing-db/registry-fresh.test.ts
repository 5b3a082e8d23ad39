// The committed registry columns (packages/invoicing/src/generated/tables.ts) must match the
// migrated schema: after changing a migration, run `npm run gen`.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { enumValuesOfCheck, introspectInvoicingSchema, renderGeneratedTables } from '../../packages/invoicing/src/registry/introspect.ts';
import { buildRegistry, resources } from '../../packages/invoicing/src/registry/registry.ts';
import { overlays } from '../../packages/invoicing/src/registry/overlay.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';

const GENERATED = new URL('../../packages/invoicing/src/generated/tables.ts', import.meta.url);

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db?.drop();
});

it('generated/tables.ts is up to date with the migrations (else: npm run gen)', async () => {
  const fresh = renderGeneratedTables(await introspectInvoicingSchema(db.sql));
  expect(readFileSync(GENERATED, 'utf8')).toBe(fresh);
});

it('the registry has the 31 resources of the spec, four of them read-only', () => {
  expect(resources).toHaveLength(31);
  expect(resources.filter((r) => r.readOnly).map((r) => r.path).sort())
    .toEqual(['activity-log', 'licenses', 'members', 'webhook-deliveries']);
  const invoices = resources.find((r) => r.path === 'invoices')!;
  expect(invoices.columns.find((c) => c.name === 'status')?.enumValues).toEqual(['unpaid', 'partial', 'paid']);
  expect(invoices.columns.find((c) => c.name === 'balance')?.generated).toBe(true);
});

it('an overlay naming a missing column fails at build time', () => {
  const broken = overlays.map((o) => (o.path === 'parties' ? { ...o, searchColumns: ['nope'] } : o));
  expect(() => buildRegistry(broken, Object.fromEntries(resources.map((r) => [r.table, { name: r.table, isView: false, columns: r.columns }]))))
    .toThrow(/parties.*nope/);
});

it('reads enum values off CHECK definitions, and nothing else', () => {
  expect(enumValuesOfCheck("CHECK ((type = ANY (ARRAY['sale'::text, 'purchase'::text])))")).toEqual(['sale', 'purchase']);
  expect(enumValuesOfCheck("CHECK ((kind = ANY (ARRAY['it''s'::text])))")).toEqual(["it's"]);
  expect(enumValuesOfCheck('CHECK ((qty > (0)::numeric))')).toBeNull();
  expect(enumValuesOfCheck("CHECK ((hsn_code ~ '^[0-9]{4,8}$'::text))")).toBeNull();
});
