// Stock through every movement: opening stock, sale −, sale_return +, purchase +,
// purchase_return −, secondary units, delivery challans (and their conversion to an invoice),
// stock adjustments add/reduce/set with edits and deletes, and the negative-stock switch.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { failure, rulesWorld, type RulesWorld } from './helpers.ts';

let w: RulesWorld;
let item: string;
const stock = async () => Number((await w.row('items', item)).stock);
const line = (invoiceId: string, qty: number, extra: object = {}) =>
  w.insert('invoice_items', { invoice_id: invoiceId, item_id: item, item_name: 'Box of pens', qty, rate: 10, gst_rate: 12, ...extra });
const header = async (type: string, extra: object = {}) => (await w.insert('invoices', { type, party_name: 'X', ...extra })).id as string;

beforeAll(async () => {
  w = await rulesWorld();
  // 1 BOX = 10 PCS; the client's `stock` is ignored: a new item starts at opening_stock
  item = (await w.insert('items', { name: 'Pens', primary_unit: 'BOX', secondary_unit: 'PCS', conversion_rate: 10, opening_stock: 50, stock: 999 })).id;
});
afterAll(async () => w?.db.drop());

it('moves with every invoice type, edit and delete', async () => {
  expect(await stock()).toBe(50);
  const sale = await header('sale');
  const l = await line(sale, 5);
  expect(await stock()).toBe(45);
  await line(sale, 20, { unit: 'PCS' });  // 20 PCS = 2 BOX
  expect(await stock()).toBe(43);
  await w.run((tx) => tx`update invoicing.invoice_items set qty = 8 where id = ${l.id}`);  // edit: −8 instead of −5
  expect(await stock()).toBe(40);
  const ret = await header('sale_return', { original_invoice_id: sale });
  await line(ret, 3);
  expect(await stock()).toBe(43);
  const purchase = await header('purchase');
  await line(purchase, 10);
  expect(await stock()).toBe(53);
  const pret = await header('purchase_return', { original_invoice_id: purchase });
  await line(pret, 4);
  expect(await stock()).toBe(49);
  await w.run((tx) => tx`delete from invoicing.invoices where id = ${sale}`);  // reverses −10 (its sale_return keeps +3)
  expect(await stock()).toBe(59);
  // opening stock edits shift stock by the difference; a direct stock edit is ignored
  await w.run((tx) => tx`update invoicing.items set opening_stock = 60, stock = 0 where id = ${item}`);
  expect(await stock()).toBe(69);
});

it('delivery challans deduct once, even when converted to an invoice', async () => {
  const start = await stock();
  const dc = (await w.insert('documents', { doc_type: 'delivery_challan', party_name: 'X' })).id;
  expect((await w.row('documents', dc)).stock_applied).toBe(true);
  await w.insert('document_items', { document_id: dc, item_id: item, item_name: 'Pens', qty: 6, rate: 10, gst_rate: 12 });
  expect(await stock()).toBe(start - 6);
  const inv = await header('sale', { source_document_id: dc });
  await line(inv, 6);
  expect(await stock()).toBe(start - 6);
  expect((await w.row('documents', dc)).status).toBe('converted');
  expect((await failure(w.run((tx) => tx`delete from invoicing.documents where id = ${dc}`))).message).toMatch(/converted delivery challan/);
  // an unconverted challan's deletion restores stock; estimates never move it
  const dc2 = (await w.insert('documents', { doc_type: 'delivery_challan', party_name: 'X' })).id;
  await w.insert('document_items', { document_id: dc2, item_id: item, item_name: 'Pens', qty: 2, rate: 10, gst_rate: 12 });
  expect(await stock()).toBe(start - 8);
  await w.run((tx) => tx`delete from invoicing.documents where id = ${dc2}`);
  const est = (await w.insert('documents', { doc_type: 'estimate', party_name: 'X' })).id;
  await w.insert('document_items', { document_id: est, item_id: item, item_name: 'Pens', qty: 2, rate: 10, gst_rate: 12 });
  expect(await stock()).toBe(start - 6);
  // challan_reduces_stock = false: challans leave stock alone
  await w.sql`update invoicing.business_profile set settings = settings || '{"challan_reduces_stock": false}' where company_id = ${w.companyId}`;
  const dc3 = (await w.insert('documents', { doc_type: 'delivery_challan', party_name: 'X' })).id;
  await w.insert('document_items', { document_id: dc3, item_id: item, item_name: 'Pens', qty: 2, rate: 10, gst_rate: 12 });
  expect(await stock()).toBe(start - 6);
});

it('adjustments add, reduce and set, record before/after, and reverse on edit and delete', async () => {
  const s0 = await stock();
  const add = await w.insert('stock_adjustments', { item_id: item, type: 'add', qty: 5 });
  expect([Number(add.stock_before), Number(add.stock_after), await stock()]).toEqual([s0, s0 + 5, s0 + 5]);
  const red = await w.insert('stock_adjustments', { item_id: item, type: 'reduce', qty: 2 });
  expect(await stock()).toBe(s0 + 3);
  const set = await w.insert('stock_adjustments', { item_id: item, type: 'set', qty: 100 });
  expect([Number(set.stock_before), await stock()]).toEqual([s0 + 3, 100]);
  await w.run((tx) => tx`update invoicing.stock_adjustments set qty = 7 where id = ${add.id}`);  // +7 instead of +5
  expect(await stock()).toBe(102);
  await w.run((tx) => tx`delete from invoicing.stock_adjustments where id = ${set.id}`);  // undoes exactly its change
  expect(await stock()).toBe(102 - (100 - (s0 + 3)));
  await w.run((tx) => tx`delete from invoicing.stock_adjustments where id in (${add.id}, ${red.id})`);
  expect(await stock()).toBe(s0);
});

it('allows negative stock by default and refuses it when allow_negative_stock is false', async () => {
  const s0 = await stock();
  const sale = await header('sale');
  await line(sale, s0 + 1);
  expect(await stock()).toBe(-1);
  await w.sql`update invoicing.business_profile set settings = settings || '{"allow_negative_stock": false}' where company_id = ${w.companyId}`;
  const bad = await failure(line(sale, 1));
  expect([bad.code, bad.message]).toEqual(['23514', expect.stringMatching(/^qty: not enough stock of "Pens"/)]);
  const adj = await failure(w.insert('stock_adjustments', { item_id: item, type: 'reduce', qty: 1 }));
  expect(adj.code).toBe('23514');
  await w.insert('stock_adjustments', { item_id: item, type: 'add', qty: 1 });  // increases always pass
  expect(await stock()).toBe(0);
});
