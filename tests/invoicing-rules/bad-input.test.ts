// Bad input is refused by the database with a SQLSTATE the API maps to 400 and a message (or
// constraint name) that names the field.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeCompany } from '../invoicing-db/personas.ts';
import { failure, rulesWorld, type RulesWorld } from './helpers.ts';

let w: RulesWorld;
let invoiceId: string;
let foreignParty: string;
let foreignItem: string;

beforeAll(async () => {
  w = await rulesWorld();
  invoiceId = (await w.insert('invoices', { type: 'sale', party_name: 'X' })).id;
  const otherCompany = await makeCompany(w.sql, w.ownerId, 'Other Co');
  [{ id: foreignParty }] = await w.sql`insert into invoicing.parties (company_id, name) values (${otherCompany}, 'Theirs') returning id`;
  [{ id: foreignItem }] = await w.sql`insert into invoicing.items (company_id, name) values (${otherCompany}, 'Theirs') returning id`;
});
afterAll(async () => w?.db.drop());

const line = (extra: object) => w.insert('invoice_items', { invoice_id: invoiceId, item_name: 'A', qty: 1, rate: 10, gst_rate: 18, ...extra });

it.each([
  ['negative quantity', () => line({ qty: -2 }), '23514', /qty/],
  ['zero quantity', () => line({ qty: 0 }), '23514', /qty/],
  ['negative rate', () => line({ rate: -1 }), '23514', /rate/],
  ['discount above the line', () => line({ discount_amount: 50 }), '23514', /^discount_amount/],
  ['GST rate outside the slabs', () => line({ gst_rate: 15 }), '23514', /gst_rate/],
  ['GST rate outside the slabs on an item', () => w.insert('items', { name: 'I', gst_rate: 7 }), '23514', /gst_rate/],
  ['item of another company', () => line({ item_id: foreignItem }), '23503', /item_id/],
  ['party of another company', () => w.insert('invoices', { type: 'sale', party_id: foreignParty }), '23503', /party_id/],
  ['payment for a party of another company', () => w.insert('payments', { party_id: foreignParty, amount: 5 }), '23503', /party_id/],
  ['sale return without its invoice', () => w.insert('invoices', { type: 'sale_return', party_name: 'X' }), '23514', /^original_invoice_id is required/],
  ['purchase return of a sale', () => w.insert('invoices', { type: 'purchase_return', party_name: 'X', original_invoice_id: invoiceId }), '23514', /^original_invoice_id: a purchase_return must refer to a purchase/],
  ['original invoice on a sale', () => w.insert('invoices', { type: 'sale', party_name: 'X', original_invoice_id: invoiceId }), '23514', /^original_invoice_id/],
  ['negative adjustment quantity', async () => w.insert('stock_adjustments', { item_id: (await w.insert('items', { name: 'J' })).id, type: 'add', qty: -1 }), '23514', /qty/],
  ['negative opening stock', () => w.insert('items', { name: 'K', opening_stock: -5 }), '23514', /opening_stock/],
])('%s', async (_, act, code, field) => {
  const err = await failure(act());
  expect(err.code).toBe(code);
  // a check constraint's name carries the field (<table>_<field>_check); our own messages start with it
  const named = await w.sql`select 1`.then(() => err.message);
  expect(named + ' ' + ((err as { constraint_name?: string }).constraint_name ?? '')).toMatch(field);
});
