// The two invoice endpoints beyond the generic engine: the lines of one invoice, and an invoice
// created together with its lines in one transaction. Both reuse the engine's validation and SQL.
import type { Hono } from 'hono';
import { HttpError } from '../../../edge/mod.ts';
import type { AppDeps, AppEnv } from '../http/app-env.ts';
import { dataResponse } from '../http/respond.ts';
import { inCompany } from '../http/session.ts';
import { parseListQuery } from '../query/query-parser.ts';
import { readJson, validateRow, MAX_BULK } from './body.ts';
import { getRow, listRows } from './crud.ts';
import { checkedId, lookupResource } from './resource-routes.ts';

export function invoiceRoutes(app: Hono<AppEnv>, deps: AppDeps): void {
  const { ctx } = deps;

  app.get('/v1/invoices/:id/items', async (c) => {
    const invoices = lookupResource(deps, 'invoices');
    const lines = lookupResource(deps, 'invoice-items');
    const id = checkedId(invoices, c.req.param('id'));
    const q = parseListQuery(lines, new URL(c.req.url).searchParams, [{ column: 'invoice_id', op: 'eq', value: id }]);
    const result = await inCompany(ctx, c.var.caller, async ({ tx }) => {
      // an unknown (or foreign) invoice is a 404, not an empty list
      const [, list] = await Promise.all([getRow(tx, invoices, id), listRows(tx, lines, q)]);
      return list;
    });
    return dataResponse(result.dataJson, 200, result.meta);
  });

  app.post('/v1/invoices/with-items', async (c) => {
    const invoices = lookupResource(deps, 'invoices');
    const lines = lookupResource(deps, 'invoice-items');
    const body = await readJson(c.req.raw);
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new HttpError(400, 'Expected a JSON object: the invoice fields plus `items`, an array of lines');
    }
    const { items, ...fields } = body as Record<string, unknown>;
    if (!Array.isArray(items)) throw new HttpError(400, "Field 'items' is required: an array of invoice lines");
    if (items.length > MAX_BULK) throw new HttpError(400, `Field 'items' takes at most ${MAX_BULK} lines`);
    const invoice = validateRow(invoices, fields, 'create');
    // the lines' invoice_id is the new invoice's: validated with a stand-in, then left out
    const preset = { invoice_id: '00000000-0000-0000-0000-000000000000' };
    const rows = items.map((item, i) => {
      const { invoice_id: _standIn, ...line } = validateRow(lines, item, 'create', `items[${i}]: `, preset);
      return line;
    });
    // invoicing.create_invoice_with_items inserts both, lets the GST rules fill what the client
    // omitted, and refuses client money that disagrees with them by more than 0.01 (naming it)
    const json = await inCompany(ctx, c.var.caller, async ({ tx }) => {
      const [row] = await tx`select invoicing.create_invoice_with_items(${tx.json(invoice as never)}, ${tx.json(rows as never)})::text as data`;
      return row.data as string;
    });
    return dataResponse(json, 201);
  });
}
