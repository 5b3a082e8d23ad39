// Money in integer cents: parsing, apportionment and balances as properties.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { apportion } from '../../packages/splitting/src/apportion.ts';
import { computeBalanceCents, toBalanceRows } from '../../packages/splitting/src/balances.ts';
import { centsToNumber, centsToNumeric, parseCents } from '../../packages/splitting/src/money.ts';

const ids = ['c', 'a', 'b', 'd', 'e'].map((x) => `00000000-0000-4000-8000-00000000000${x}`);

describe('money', () => {
  it('parses amounts exactly, with at most 2 decimals', () => {
    expect(parseCents(12.34)).toBe(1234);
    expect(parseCents('0.1')).toBe(10);
    expect(parseCents(0.07)).toBe(7);
    expect(parseCents(1.005)).toBeNull();
    expect(parseCents(-1)).toBeNull();
    expect(parseCents('1e3')).toBeNull();
    expect(parseCents(1e-7)).toBeNull();
    expect(centsToNumeric(-1205)).toBe('-12.05');
    expect(centsToNumber(1999)).toBe(19.99);
  });

  it('gives leftover cents to the first members by id', () => {
    const shares = apportion(1000, ids.slice(0, 3));
    expect([...shares.entries()].sort()).toEqual([[ids[1], 334], [ids[2], 333], [ids[0], 333]].sort());
  });

  it('shares always add up to the amount and differ by at most one cent', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 10 ** 12 }), fc.integer({ min: 1, max: 5 }), (cents, k) => {
      const shares = [...apportion(cents, ids.slice(0, k)).values()];
      expect(shares.reduce((a, b) => a + b, 0)).toBe(cents);
      expect(Math.max(...shares) - Math.min(...shares)).toBeLessThanOrEqual(1);
    }));
  });

  it('balances always sum to exactly zero, also as 2-decimal numbers', () => {
    const members = ids.map((id, i) => ({ id, name: `M${i}` }));
    const expense = fc.record({
      paidBy: fc.constantFrom(...ids),
      cents: fc.integer({ min: 1, max: 10 ** 9 }),
      splitAmong: fc.subarray(ids),
    });
    const settlement = fc.record({ from: fc.constantFrom(...ids), to: fc.constantFrom(...ids), cents: fc.integer({ min: 1, max: 10 ** 6 }) });
    fc.assert(fc.property(fc.array(expense, { maxLength: 30 }), fc.array(settlement, { maxLength: 5 }), (expenses, settlements) => {
      const rows = computeBalanceCents(members, expenses, settlements);
      expect(rows.reduce((sum, r) => sum + r.paidCents - r.owedCents, 0)).toBe(0);
      for (const r of toBalanceRows(rows)) {
        expect(Math.round(r.balance * 100) / 100).toBe(r.balance);
        expect(Math.round((r.totalPaid - r.totalOwed) * 100)).toBe(Math.round(r.balance * 100));
      }
    }));
  });
});
