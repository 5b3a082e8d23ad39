// Settlement math: the spec's example, greedy vs minimal, and the invariants as properties.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { greedySettlements, minimalSettlements, type MemberBalance, type Transfer } from '../../packages/splitting/src/settlement.ts';

const balances = (values: number[]): MemberBalance[] =>
  values.map((cents, i) => ({ memberId: `m${String(i).padStart(2, '0')}`, memberName: `M${i}`, balanceCents: cents }));

function apply(list: MemberBalance[], transfers: Transfer[]): Map<string, number> {
  const left = new Map(list.map((b) => [b.memberId, b.balanceCents]));
  for (const t of transfers) {
    left.set(t.from, left.get(t.from)! + t.cents);
    left.set(t.to, left.get(t.to)! - t.cents);
  }
  return left;
}

/** Zero-sum integer balances (cents), n members. */
const zeroSum = (maxLen: number) =>
  fc.array(fc.integer({ min: -100_000, max: 100_000 }), { minLength: 1, maxLength: maxLen - 1 }).map((xs) => [...xs, -xs.reduce((a, b) => a + b, 0)]);

describe('settlements', () => {
  it('follows the spec example: creditor +30, debtors −20 and −10 → transfers of 20 and 10', () => {
    const list = [
      { memberId: 'a', memberName: 'A', balanceCents: 3000 },
      { memberId: 'b', memberName: 'B', balanceCents: -2000 },
      { memberId: 'c', memberName: 'C', balanceCents: -1000 },
    ];
    expect(greedySettlements(list)).toEqual([
      { from: 'b', to: 'a', cents: 2000 },
      { from: 'c', to: 'a', cents: 1000 },
    ]);
  });

  it('beats greedy when a zero-sum split exists: +40 +30 +30 −60 −40', () => {
    const list = balances([4000, 3000, 3000, -6000, -4000]);
    expect(greedySettlements(list)).toHaveLength(4);
    const minimal = minimalSettlements(list);
    expect(minimal).toHaveLength(3);
    expect([...apply(list, minimal).values()].every((v) => v === 0)).toBe(true);
  });

  it('breaks ties by member id, deterministically', () => {
    const list = balances([1000, 1000, -1000, -1000]);
    expect(greedySettlements(list)).toEqual(greedySettlements([...list].reverse()));
    expect(greedySettlements(list)[0]).toEqual({ from: 'm02', to: 'm00', cents: 1000 });
  });

  it('applying greedy transfers settles everyone, with at most n−1 transfers', () => {
    fc.assert(fc.property(zeroSum(30), (values) => {
      const list = balances(values);
      const transfers = greedySettlements(list);
      expect([...apply(list, transfers).values()].every((v) => v === 0)).toBe(true);
      expect(transfers.every((t) => t.cents > 0)).toBe(true);
      expect(transfers.length).toBeLessThanOrEqual(Math.max(0, values.filter((v) => v !== 0).length - 1));
    }));
  });

  it('minimal settles everyone and never uses more transfers than greedy', () => {
    // small values make zero-sum subsets common, which is where minimal differs
    const small = fc.array(fc.integer({ min: -5, max: 5 }), { minLength: 1, maxLength: 11 }).map((xs) => [...xs, -xs.reduce((a, b) => a + b, 0)]);
    fc.assert(fc.property(small, (values) => {
      const list = balances(values.map((v) => v * 1000));
      const minimal = minimalSettlements(list);
      expect([...apply(list, minimal).values()].every((v) => v === 0)).toBe(true);
      expect(minimal.length).toBeLessThanOrEqual(greedySettlements(list).length);
    }), { numRuns: 300 });
  });

  it('minimal search stays fast at its 20-balance limit', () => {
    const values = Array.from({ length: 19 }, (_, i) => (i % 2 ? 1 : -1) * (i + 1) * 100);
    values.push(-values.reduce((a, b) => a + b, 0));
    const started = performance.now();
    const transfers = minimalSettlements(balances(values));
    expect(performance.now() - started).toBeLessThan(2000);
    expect([...apply(balances(values), transfers).values()].every((v) => v === 0)).toBe(true);
  });
});
