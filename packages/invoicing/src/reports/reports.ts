// The reports: each one SQL function of schema invoicing (see the reports migrations) that
// aggregates the active company's rows with RLS applied and returns the response's `data`.
// `run` gets the request's transaction, so the caller's claims and company are already set.
import type { z } from 'zod';
import type { TransactionSql } from '../../../edge/mod.ts';
import { outstandingParams, periodParams, stockParams } from './params.ts';

export interface Report<S extends z.ZodType = z.ZodType> {
  params: S;
  description: string;
  run(tx: TransactionSql, params: z.output<S>): Promise<unknown>;
}

const report = <S extends z.ZodType>(r: Report<S>): Report => r as unknown as Report;

/** Calls one report function; jsonb arrives parsed, money as JSON numbers (≤ 2 decimals). */
async function call(query: Promise<{ data: unknown }[]>): Promise<unknown> {
  const [row] = await query;
  return row.data;
}

export const reports: Record<string, Report> = {
  summary: report({
    params: periodParams,
    description:
      'Period totals: sales {count,total,received}, purchases {count,total,paid}, saleReturns and ' +
      'purchaseReturns {count,total}, paymentsIn, paymentsOut, expenses (Σ total incl. GST) and ' +
      'grossProfit = (sales − sale returns) − (purchases − purchase returns), all ex-GST subtotals.',
    run: (tx, p) => call(tx`select invoicing.report_summary(${p.from}::date, ${p.to}::date) as data`),
  }),
  'gst-summary': report({
    params: periodParams,
    description:
      'Tax totals: outputTax (sales), inputTax (purchases), creditNotes (sale returns), debitNotes ' +
      '(purchase returns), each {taxable, cgst, sgst, igst, total = cgst+sgst+igst, invoices}; ' +
      'netPayable = (outputTax − creditNotes) − (inputTax − debitNotes) totals; expense ITC is not ' +
      'deducted; negative = credit carried forward.',
    run: (tx, p) => call(tx`select invoicing.report_gst_summary(${p.from}::date, ${p.to}::date) as data`),
  }),
  stock: report({
    params: stockParams,
    description:
      'Item-wise stock of tracked items: {items: [{id, name, item_code, hsn_code, unit, stock, ' +
      'min_stock, purchase_price, sale_price, value = stock × purchase_price, low_stock}], totals: ' +
      '{items, stock_value, low_stock_items}}. low_stock = min_stock > 0 and stock ≤ min_stock.',
    run: (tx, p) =>
      call(tx`select invoicing.report_stock(${p.search ?? null}::text, ${p.low_stock ?? null}::boolean) as data`),
  }),
  outstanding: report({
    params: outstandingParams,
    description:
      'Party-wise balances (non-zero only): {type, parties: [{id, name, type, phone, gstin, ' +
      'credit_limit, balance, receivable, payable}], totals: {parties, receivable, payable, net}}. ' +
      'balance = ± opening balance + open sales − open sale returns − open purchases + open ' +
      'purchase returns − unallocated payments in + unallocated payments out; > 0 = receivable.',
    run: (tx, p) => call(tx`select invoicing.report_outstanding(${p.type ?? null}::text) as data`),
  }),
  gstr1: report({
    params: periodParams,
    description:
      'GSTR-1 outward supplies in the GST portal JSON shape: b2b, b2cl, b2cs, cdnr and hsn ' +
      '(built from sales, sale returns and their lines).',
    run: (tx, p) => call(tx`select invoicing.report_gstr1(${p.from}::date, ${p.to}::date) as data`),
  }),
};
