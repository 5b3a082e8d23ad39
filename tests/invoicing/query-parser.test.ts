// The list query language, table-driven: every parameter and suffix, good and bad values.
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../packages/edge/mod.ts';
import { parseListQuery, splitFilterKey, nextDay } from '../../packages/invoicing/src/query/query-parser.ts';
import { invoicesFixture as invoices, unitsFixture as units } from './fixtures.ts';

const parse = (qs: string, resource = invoices) => parseListQuery(resource, new URLSearchParams(qs));

function rejects(qs: string, mentions: string, resource = invoices) {
  try {
    parse(qs, resource);
  } catch (err) {
    expect(err).toBeInstanceOf(HttpError);
    expect((err as HttpError).status).toBe(400);
    expect((err as HttpError).message).toContain(mentions);
    return;
  }
  throw new Error(`expected ${qs} to be rejected`);
}

describe('paging', () => {
  it.each([
    ['', 50, 0, 1],
    ['limit=10', 10, 0, 1],
    ['per_page=20', 20, 0, 1],
    ['limit=10&per_page=20', 10, 0, 1],
    ['limit=1000', 500, 0, 1],
    ['limit=500', 500, 0, 1],
    ['offset=30&limit=10', 10, 30, 4],
    ['page=3&per_page=20', 20, 40, 3],
    ['page=1', 50, 0, 1],
    ['page=2&offset=5', 50, 5, 1],
    ['limit=', 50, 0, 1],
  ])('%s → limit %i offset %i page %i', (qs, limit, offset, page) => {
    expect(parse(qs)).toMatchObject({ limit, offset, page });
  });

  it.each([
    ['limit=abc', 'limit'],
    ['limit=0', 'limit'],
    ['limit=-5', 'limit'],
    ['limit=2.5', 'limit'],
    ['per_page=x', 'per_page'],
    ['offset=-1', 'offset'],
    ['offset=ten', 'offset'],
    ['page=0', 'page'],
    ['page=two', 'page'],
    ['page=99999999999999999999', 'page'],
  ])('%s → 400 naming %s', (qs, name) => rejects(qs, `'${name}'`));
});

describe('sort and order/dir', () => {
  it('defaults to the overlay sort plus the id tie-break', () => {
    expect(parse('').sort).toEqual([
      { column: 'date', desc: true },
      { column: 'created_at', desc: true },
      { column: 'id', desc: false },
    ]);
  });
  it.each([
    ['sort=-total,party_name', [{ column: 'total', desc: true }, { column: 'party_name', desc: false }, { column: 'id', desc: false }]],
    ['sort=+date', [{ column: 'date', desc: false }, { column: 'id', desc: false }]],
    ['sort=-id', [{ column: 'id', desc: true }]],
    ['sort=date,,', [{ column: 'date', desc: false }, { column: 'id', desc: false }]],
    ['order=total&dir=desc', [{ column: 'total', desc: true }, { column: 'id', desc: false }]],
    ['order=total&dir=ASC', [{ column: 'total', desc: false }, { column: 'id', desc: false }]],
    ['order=total', [{ column: 'total', desc: false }, { column: 'id', desc: false }]],
    ['sort=created_at&order=total&dir=desc', [{ column: 'created_at', desc: false }, { column: 'id', desc: false }]],
    ['sort=updated_at', [{ column: 'updated_at', desc: false }, { column: 'id', desc: false }]],
  ])('%s', (qs, sort) => expect(parse(qs).sort).toEqual(sort));

  it.each([
    ['sort=nope', 'sort'],
    ['sort=-total,nope', 'nope'],
    ['sort=total;drop table x', 'sort'],
    ['order=nope', 'order'],
    ['order=total&dir=sideways', 'dir'],
    ['dir=up', 'dir'],
  ])('%s → 400 naming %s', (qs, name) => rejects(qs, name));
});

describe('search, select, count', () => {
  it('search keeps the raw term; blank is no search', () => {
    expect(parse('search=50%_off').search).toBe('50%_off');
    expect(parse('search=%20').search).toBeNull();
  });
  it('select projects known columns once', () => {
    expect(parse('select=id,total,id').select).toEqual(['id', 'total']);
    expect(parse('select=created_at,updated_at').select).toEqual(['created_at', 'updated_at']);
    expect(parse('select=').select).toBeNull();
  });
  it('select of an unknown column → 400', () => rejects('select=id,password', "'password'"));
  it.each([
    ['', true],
    ['count=none', false],
    ['count=NONE', false],
    ['count=exact', true],
  ])('count %s → %s', (qs, count) => expect(parse(qs).count).toBe(count));
  it('count=maybe → 400', () => rejects('count=maybe', "'count'"));
});

describe('from/to and date_field', () => {
  it('defaults to the date column, inclusive', () => {
    expect(parse('from=2025-01-01&to=2025-01-31').filters).toEqual([
      { column: 'date', op: 'gte', value: '2025-01-01' },
      { column: 'date', op: 'lte', value: '2025-01-31' },
    ]);
  });
  it('a timestamp column includes the whole `to` day', () => {
    expect(parse('date_field=created_at&to=2025-12-31').filters).toEqual([
      { column: 'created_at', op: 'lt', value: '2026-01-01' },
    ]);
  });
  it('nextDay crosses months and leap days', () => {
    expect(nextDay('2024-02-28')).toBe('2024-02-29');
    expect(nextDay('2024-02-29')).toBe('2024-03-01');
  });
  it.each([
    ['from=2025-13-01', "'from'"],
    ['to=yesterday', "'to'"],
    ['from=2025-02-30', "'from'"],
    ['date_field=total&from=2025-01-01', "'date_field'"],
    ['date_field=nope&from=2025-01-01', "'date_field'"],
    ['date_field=party_name', "'date_field'"],
  ])('%s → 400 naming %s', (qs, name) => rejects(qs, name));
  it('a resource without a date column needs date_field', () => {
    rejects('from=2025-01-01', 'date_field', units);
    expect(parse('from=2025-01-01&date_field=created_at', units).filters).toHaveLength(1);
  });
});

describe('column filters', () => {
  it('splits suffixes, and only known ones', () => {
    expect(splitFilterKey('total__gte')).toEqual({ column: 'total', op: 'gte' });
    expect(splitFilterKey('party_name')).toEqual({ column: 'party_name', op: 'eq' });
    expect(splitFilterKey('a__b')).toEqual({ column: 'a__b', op: 'eq' });
  });

  it.each([
    ['status=unpaid', { column: 'status', op: 'eq', value: 'unpaid' }],
    ['status__neq=paid', { column: 'status', op: 'neq', value: 'paid' }],
    ['total__gt=100.50', { column: 'total', op: 'gt', value: '100.50' }],
    ['total__gte=0', { column: 'total', op: 'gte', value: '0' }],
    ['total__lt=-3', { column: 'total', op: 'lt', value: '-3' }],
    ['credit_days__lte=30', { column: 'credit_days', op: 'lte', value: '30' }],
    ['date__gte=2025-01-01', { column: 'date', op: 'gte', value: '2025-01-01' }],
    ['created_at__lt=2025-01-01T10:00:00Z', { column: 'created_at', op: 'lt', value: '2025-01-01T10:00:00Z' }],
    ['party_name__like=ac%25me', { column: 'party_name', op: 'like', value: 'ac%me' }],
    ['party_name__starts=Ac', { column: 'party_name', op: 'starts', value: 'Ac' }],
    ['party_name__ends=Ltd', { column: 'party_name', op: 'ends', value: 'Ltd' }],
    ['status__in=unpaid,partial', { column: 'status', op: 'in', value: ['unpaid', 'partial'] }],
    ['party_id__null=true', { column: 'party_id', op: 'null', value: true }],
    ['party_id__null=false', { column: 'party_id', op: 'null', value: false }],
    ['is_reverse_charge=false', { column: 'is_reverse_charge', op: 'eq', value: false }],
    ['is_reverse_charge=1', { column: 'is_reverse_charge', op: 'eq', value: true }],
    ['party_id=6F9619FF-8B86-D011-B42D-00C04FC964FF', { column: 'party_id', op: 'eq', value: '6f9619ff-8b86-d011-b42d-00c04fc964ff' }],
    ['tags=vip', { column: 'tags', op: 'eq', value: 'vip' }],
    ['meta={"a":1}', { column: 'meta', op: 'eq', value: '{"a":1}' }],
    ['invoice_number=', { column: 'invoice_number', op: 'eq', value: '' }],
    ['apikey=sb_publishable_x', undefined],
  ])('%s', (qs, filter) => {
    expect(parse(qs).filters).toEqual(filter ? [filter] : []);
  });

  it('repeated parameters all apply', () => {
    expect(parse('total__gt=1&total__lt=9').filters).toHaveLength(2);
  });

  it.each([
    ['nope=1', "'nope'"],
    ['nope__gt=1', "'nope__gt'"],
    ['total__between=1', "'total__between'"],
    ['total=abc', "'total'"],
    ['total__gt=1e999', "'total__gt'"],
    ['credit_days=1.5', "'credit_days'"],
    ['date=2025-1-1', "'date'"],
    ['date__lte=not-a-date', "'date__lte'"],
    ['created_at__gt=2025-01-01Tnoon', "'created_at__gt'"],
    ['is_reverse_charge=yes', "'is_reverse_charge'"],
    ['party_id=123', "'party_id'"],
    ['party_id__null=maybe', "'party_id__null'"],
    ['status__in=', "'status__in'"],
    ['total__in=1,x', "'total__in'"],
    ['is_reverse_charge__gt=true', "'is_reverse_charge__gt'"],
    ['meta__like=x', "'meta__like'"],
    ['meta={bad', "'meta'"],
    ['tags__starts=v', "'tags__starts'"],
  ])('%s → 400 naming %s', (qs, name) => rejects(qs, name));
});
