// Database errors in words: every mapped SQLSTATE gives the intended status, and no message
// repeats the driver's text (which can carry other rows' values and table internals).
import { describe, expect, it } from 'vitest';
import { dbErrorToHttp } from '../../packages/invoicing/src/http/db-errors.ts';

const err = (code: string, extra: Record<string, string> = {}) => ({ code, message: 'raw driver text', ...extra });

describe('dbErrorToHttp', () => {
  it.each([
    [err('23505', { table_name: 'invoices', detail: 'Key (company_id, type, invoice_number)=(x, sale, INV-1) already exists.' }), 400, /invoice with this type and invoice_number already exists/],
    [err('23503', { table_name: 'payments', detail: 'Key (party_id)=(x) is not present in table "parties".' }), 400, /'party_id' does not refer/],
    [err('23503', { table_name: 'parties', detail: 'Key (id)=(x) is still referenced from table "invoices".' }), 400, /still referenced by invoices/],
    [err('23502', { column_name: 'party_name' }), 400, /'party_name' is required/],
    [err('23514', { table_name: 'items', constraint_name: 'items_hsn_code_check' }), 400, /'hsn_code'/],
    [err('22P02', { message: 'invalid input syntax for type uuid: "x"' }), 400, /uuid/],
    [err('22003'), 400, /out of range/],
    [err('42501', { message: 'new row violates row-level security policy for table "parties"' }), 403, /^Forbidden/],
    [err('P0002', { message: 'query returned no rows' }), 404, /^Not found$/],
  ])('%#: %s', (e, status, message) => {
    const mapped = dbErrorToHttp(e as never)!;
    expect(mapped.status).toBe(status);
    expect(mapped.message).toMatch(message);
    expect(mapped.message).not.toContain('raw driver text');
    expect(mapped.message).not.toMatch(/row-level security|Key \(/);
  });

  it('leaves unknown codes to the 500 path', () => expect(dbErrorToHttp(err('XX000') as never)).toBeUndefined());
});
