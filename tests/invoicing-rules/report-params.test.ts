// GET /v1/reports/:name validation, before any SQL: unknown report → 404, missing or malformed
// from/to → 400 naming the parameter.
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../packages/edge/mod.ts';
import { parseReportRequest, reports } from '../../packages/invoicing/src/reports/mod.ts';

const parse = (name: string, qs: string) => parseReportRequest(name, new URLSearchParams(qs));
const outcome = (name: string, qs: string) => {
  try {
    parse(name, qs);
    return 'ok';
  } catch (err) {
    return err instanceof HttpError ? `${err.status} ${err.message}` : String(err);
  }
};

describe('report parameters', () => {
  it('knows the spec reports and gstr1', () =>
    expect(Object.keys(reports).sort()).toEqual(['gst-summary', 'gstr1', 'outstanding', 'stock', 'summary']));

  it.each([
    ['nope', 'from=2025-01-01&to=2025-01-31', /^404 Unknown report 'nope'/],
    ['__proto__', '', /^404/],
    ['summary', 'to=2025-01-31', /^400 Query parameter 'from' is required/],
    ['summary', 'from=2025-01-01', /^400 Query parameter 'to' is required/],
    ['gst-summary', 'from=2025-13-01&to=2025-12-31', /^400 Query parameter 'from' must be a date/],
    ['gst-summary', 'from=2025-02-30&to=2025-12-31', /^400 Query parameter 'from'/],
    ['summary', 'from=2025-02-01&to=2025-01-01', /^400 Query parameter 'to' must not be before from/],
    ['gstr1', 'from=yesterday&to=2025-01-01', /^400 Query parameter 'from'/],
    ['stock', 'low_stock=maybe', /^400 Query parameter 'low_stock'/],
    ['outstanding', 'type=vendor', /^400 Query parameter 'type'/],
  ])('%s?%s', (name, qs, expected) => expect(outcome(name, qs)).toMatch(expected));

  it('parses good parameters', () => {
    expect(parse('summary', 'from=2024-02-29&to=2024-03-31').params).toEqual({ from: '2024-02-29', to: '2024-03-31' });
    expect(parse('stock', 'low_stock=true&search=pen').params).toEqual({ low_stock: true, search: 'pen' });
    expect(parse('outstanding', '').params).toEqual({});
  });
});
