// Pure: the filter language of postgres_changes and the to_jsonb-like value conversion.
import { describe, expect, it } from 'vitest';
import { FilterError, matchesFilter, parseFilter } from '../../packages/local/src/realtime/filters.ts';
import { parseArrayLiteral, toJsonValue } from '../../packages/local/src/realtime/values.ts';

const types: Record<string, string> = { id: 'int8', name: 'text', amount: 'numeric', at: 'timestamptz', ok: 'bool', g: 'uuid' };
const match = (filter: string, row: Record<string, string | null>) =>
  matchesFilter(parseFilter(filter), row, (c) => types[c] ?? 'text');

describe('postgres_changes filters', () => {
  it('parses every operator, negation, quoting and comma-AND', () => {
    expect(parseFilter('id=eq.1,name=not.in.(a,"b,c",d)')).toEqual([
      { column: 'id', op: 'eq', negate: false, values: ['1'] },
      { column: 'name', op: 'in', negate: true, values: ['a', 'b,c', 'd'] },
    ]);
    expect(parseFilter('name=eq."x \\"y\\""')[0].values).toEqual(['x "y"']);
    expect(parseFilter('')).toEqual([]);
    expect(parseFilter(undefined)).toEqual([]);
    for (const bad of ['id', 'id=between.1', 'id=in.1', 'id=in.()', 'ok=is.maybe', '=eq.1']) {
      expect(() => parseFilter(bad), bad).toThrow(FilterError);
    }
  });

  it('compares numbers as numbers, not text', () => {
    expect(match('id=lt.10', { id: '9' })).toBe(true);
    expect(match('id=gt.10', { id: '9' })).toBe(false);
    expect(match('amount=eq.12.5', { amount: '12.50' })).toBe(true);
    expect(match('amount=gte.100', { amount: '99.99' })).toBe(false);
    expect(match('id=in.(1,2,3)', { id: '2' })).toBe(true);
    expect(match('id=neq.2', { id: '2' })).toBe(false);
  });

  it('compares timestamps, booleans and uuids by value', () => {
    expect(match('at=gt.2026-01-01T00:00:00Z', { at: '2026-01-01 00:00:01+00' })).toBe(true);
    expect(match('at=lt.2026-01-01T00:00:00Z', { at: '2026-01-01 00:00:01+00' })).toBe(false);
    expect(match('ok=eq.true', { ok: 't' })).toBe(true);
    expect(match('ok=is.false', { ok: 'f' })).toBe(true);
    expect(match('g=eq.AAAAAAAA-0000-4000-8000-000000000000', { g: 'aaaaaaaa-0000-4000-8000-000000000000' })).toBe(true);
  });

  it('never matches NULL except with is.null, and like/ilike are anchored patterns', () => {
    expect(match('name=eq.x', { name: null })).toBe(false);
    expect(match('name=neq.x', { name: null })).toBe(false);
    expect(match('name=not.eq.x', { name: null })).toBe(false);
    expect(match('name=is.null', { name: null })).toBe(true);
    expect(match('name=not.is.null', { name: 'a' })).toBe(true);
    expect(match('name=like.a%c', { name: 'abbc' })).toBe(true);
    expect(match('name=like.a%c', { name: 'ABBC' })).toBe(false);
    expect(match('name=ilike.a_bc', { name: 'ABBC' })).toBe(true);
    expect(match('name=like.a.c', { name: 'abc' })).toBe(false);
    expect(match('missing=eq.1', { name: 'a' })).toBe(false);
  });
});

describe('values as to_jsonb prints them', () => {
  it('converts by column type', () => {
    expect(toJsonValue('int8', '42')).toBe(42);
    expect(toJsonValue('numeric', '12.50')).toBe(12.5);
    expect(toJsonValue('numeric', 'NaN')).toBe('NaN');
    expect(toJsonValue('bool', 'f')).toBe(false);
    expect(toJsonValue('jsonb', '{"a": [1]}')).toEqual({ a: [1] });
    expect(toJsonValue('timestamptz', '2026-01-01 12:00:00.123456+00')).toBe('2026-01-01T12:00:00.123456+00:00');
    expect(toJsonValue('timestamptz', '2026-01-01 12:00:00+0530')).toBe('2026-01-01T12:00:00+05:30');
    expect(toJsonValue('timestamp', '2026-01-01 12:00:00')).toBe('2026-01-01T12:00:00');
    expect(toJsonValue('uuid', 'x')).toBe('x');
    expect(toJsonValue('text', null)).toBeNull();
    expect(toJsonValue('_int4', '{1,2,NULL}')).toEqual([1, 2, null]);
    expect(toJsonValue('_text', '{"a b","c\\"d",e}')).toEqual(['a b', 'c"d', 'e']);
    expect(toJsonValue('_int4', '{{1,2},{3,4}}')).toEqual([[1, 2], [3, 4]]);
  });

  it('parses array literals with custom bounds and empty arrays', () => {
    expect(parseArrayLiteral('{}')).toEqual([]);
    expect(parseArrayLiteral('[0:1]={a,b}')).toEqual(['a', 'b']);
    expect(() => parseArrayLiteral('{a,b')).toThrow();
  });
});
