// Public endpoints, prefixes, bearer auth, company selection, /me, /companies, members, and the
// error envelope for unknown routes and methods.
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, startInvoicing, type InvoicingHarness, type Persona } from './support.ts';

let h: InvoicingHarness;
let owner: Persona;

beforeAll(async () => {
  h = await startInvoicing();
  owner = await h.owner('Alpha Traders');
});
afterAll(async () => h?.stop());

describe('public endpoints and prefixes', () => {
  it.each(['/v1', '/api/v1', '/functions/v1/invoicing/v1'])('health under %s, no auth, no apikey needed', async (prefix) => {
    const res = await h.call('/health', { prefix });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('ok');
  });

  it('openapi.json and docs are public', async () => {
    expect((await h.call('/openapi.json')).body.openapi).toBe('3.1.0');
    const docs = await h.call('/docs', { prefix: '/api/v1' });
    expect(docs.status).toBe(200);
    expect(docs.headers.get('content-type')).toMatch(/text\/html/);
  });

  it.each(['/v1', '/api/v1', '/functions/v1/invoicing/v1'])('resources under %s', async (prefix) => {
    const res = await h.call('/parties', { prefix, token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body.meta.count).toBe(0);
  });
});

describe('authentication', () => {
  it('no token → 401', async () => expectError(await h.call('/parties'), 401));
  it('garbage token → 401 Invalid JWT', async () => expectError(await h.call('/parties', { token: 'nope' }), 401, 'Invalid JWT'));
  it('the anon key is not a user → 401', async () => expectError(await h.call('/parties', { token: h.stack.keys.anonKey }), 401));
  it('an expired token → 401', async () => {
    const { privateKey: key, kid } = h.stack.keys.signingKey;
    const token = await new SignJWT({ role: 'authenticated' })
      .setProtectedHeader({ alg: 'ES256', kid })
      .setSubject(owner.userId)
      .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 3600)
      .sign(key);
    expectError(await h.call('/parties', { token }), 401);
  });
  it('a user without company → 403 on company data, an empty /companies', async () => {
    const loner = await h.stack.signUp();
    expectError(await h.call('/parties', { token: loner.token }), 403);
    expectError(await h.call('/me', { token: loner.token }), 403);
    expect((await h.call('/companies', { token: loner.token })).body.data).toEqual([]);
  });
  it('X-Company-Id: foreign → 403, malformed → 400', async () => {
    const other = await h.owner('Other Co');
    expectError(await h.call('/parties', { token: owner.token, company: other.companyId }), 403);
    expectError(await h.call('/me', { token: owner.token, company: other.companyId }), 403);
    expectError(await h.call('/parties', { token: owner.token, company: 'not-a-uuid' }), 400, /X-Company-Id/);
  });
});

describe('routing envelope', () => {
  it.each([
    ['GET', '/nothing/here/at/all', 404],
    ['GET', '/v2', 404],
    ['PUT', '/parties', 405],
    ['PUT', '/parties/00000000-0000-4000-8000-000000000000', 405],
    ['POST', '/me', 405],
    ['DELETE', '/companies', 405],
    ['POST', '/health', 405],
    ['GET', '/companies/00000000-0000-4000-8000-000000000000/members', 405],
  ])('%s %s → %i', async (method, path, status) => {
    const res = await h.call(path, { token: owner.token, method, body: method === 'GET' ? undefined : {} });
    expectError(res, status);
  });
});

describe('/me, /companies and members', () => {
  it('/me has user, profile, companyId, company, memberships and permissions', async () => {
    const res = await h.call('/me', { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      user: { id: owner.userId, email: owner.email },
      companyId: owner.companyId,
      company: { id: owner.companyId, name: 'Alpha Traders', role: 'owner' },
      memberships: [{ companyId: owner.companyId, role: 'owner' }],
    });
    expect(res.body.data.permissions.invoices).toEqual({ read: true, write: true });
    expect(res.body.data.permissions['activity-log']).toEqual({ read: true, write: false });
  });

  it('creates companies and switches with X-Company-Id; the default is the first', async () => {
    const second = await h.call('/companies', { token: owner.token, body: { name: 'Beta Retail' } });
    expect(second.status).toBe(201);
    const id = second.body.data.id;
    const list = await h.call('/companies', { token: owner.token });
    expect(list.body.data.map((c: { name: string }) => c.name)).toEqual(['Alpha Traders', 'Beta Retail']);
    expect((await h.call('/me', { token: owner.token, company: id })).body.data.companyId).toBe(id);
    expect((await h.call('/me', { token: owner.token })).body.data.companyId).toBe(owner.companyId);
    // the new company has its business profile
    const profile = await h.call('/business-profile', { token: owner.token, company: id });
    expect(profile.body.data).toHaveLength(1);
    expectError(await h.call('/companies', { token: owner.token, body: { name: '' } }), 400, /name/);
    expectError(await h.call('/companies', { token: owner.token, body: { name: 'X', extra: 1 } }), 400, /extra/);
  });

  it('owner adds members by email; unknown email 404; non-admins cannot add', async () => {
    const staff = await h.member(owner, 'staff');
    expect((await h.call('/me', { token: staff.token })).body.data.company.role).toBe('staff');
    expectError(await h.call(`/companies/${owner.companyId}/members`, { token: owner.token, body: { email: 'ghost@example.com', role: 'staff' } }), 404);
    expectError(await h.call(`/companies/${owner.companyId}/members`, { token: owner.token, body: { email: 'not-an-email', role: 'staff' } }), 400, /email/);
    expectError(await h.call(`/companies/${owner.companyId}/members`, { token: owner.token, body: { email: staff.email, role: 'boss' } }), 400, /role/);
    const newcomer = await h.stack.signUp();
    expectError(await h.call(`/companies/${owner.companyId}/members`, { token: staff.token, body: { email: newcomer.email, role: 'viewer' } }), 403);
    expectError(await h.call(`/companies/${owner.companyId}/members`, { token: owner.token, body: { email: staff.email, role: 'viewer' } }), 400, /already exists/);
    const members = await h.call('/members', { token: owner.token });
    expect(members.body.meta.count).toBe(2);
  });

  it("a viewer reads but every write is 403", async () => {
    const party = await h.call('/parties', { token: owner.token, body: { name: 'Viewer target' } });
    const viewer = await h.member(owner, 'viewer');
    expect((await h.call(`/parties/${party.body.data.id}`, { token: viewer.token })).status).toBe(200);
    expectError(await h.call('/parties', { token: viewer.token, body: { name: 'Nope' } }), 403);
    expectError(await h.call('/parties', { token: viewer.token, body: [{ name: 'Nope' }] }), 403);
    expectError(await h.call(`/parties/${party.body.data.id}`, { token: viewer.token, method: 'PATCH', body: { name: 'Hacked' } }), 403);
    expectError(await h.call(`/parties/${party.body.data.id}`, { token: viewer.token, method: 'DELETE' }), 403);
    expect((await h.call(`/parties/${party.body.data.id}`, { token: owner.token })).body.data.name).toBe('Viewer target');
  });
});
