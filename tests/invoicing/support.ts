// One booted stack per test file, a small HTTP client for the /v1 API, and personas: users with
// companies made through the API itself (POST /v1/companies, POST /v1/companies/<id>/members).
import { expect } from 'vitest';
import { startTestStack, type TestStack } from '../support/stack.ts';

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface CallOptions {
  token?: string | null;
  company?: string;
  method?: string;
  body?: unknown;
  /** default '/v1'; '/api/v1' and '/functions/v1/invoicing/v1' reach the same app */
  prefix?: string;
}

export interface Persona {
  token: string;
  userId: string;
  email: string;
  companyId: string;
}

export interface InvoicingHarness {
  stack: TestStack;
  call<T = any>(path: string, opts?: CallOptions): Promise<ApiResponse<T>>; // eslint-disable-line
  /** A fresh user owning a fresh company. */
  owner(companyName?: string): Promise<Persona>;
  /** A fresh user added to `companyId` by its owner with `role`. */
  member(owner: Persona, role: string): Promise<Persona>;
  stop(): Promise<void>;
}

export async function startInvoicing(): Promise<InvoicingHarness> {
  const stack = await startTestStack({ workers: false });
  const call = async <T = any>(path: string, opts: CallOptions = {}): Promise<ApiResponse<T>> => {
    const headers: Record<string, string> = { apikey: stack.keys.publishableKey };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.company) headers['x-company-id'] = opts.company;
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${stack.url}${opts.prefix ?? '/v1'}${path}`, {
      method: opts.method ?? (opts.body === undefined ? 'GET' : 'POST'),
      headers,
      body: opts.body === undefined ? undefined : typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body),
    });
    const text = await res.text();
    let body: any = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* html or empty */
    }
    return { status: res.status, body, headers: res.headers };
  };
  let n = 0;
  const owner = async (companyName = `Company ${n++}`): Promise<Persona> => {
    const user = await stack.signUp();
    const created = await call('/companies', { token: user.token, body: { name: companyName } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return { token: user.token, userId: user.userId, email: user.email, companyId: created.body.data.id };
  };
  const member = async (of: Persona, role: string): Promise<Persona> => {
    const user = await stack.signUp();
    const added = await call(`/companies/${of.companyId}/members`, { token: of.token, body: { email: user.email, role } });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    return { token: user.token, userId: user.userId, email: user.email, companyId: of.companyId };
  };
  return { stack, call, owner, member, stop: () => stack.stop() };
}

/** Every failure has the one envelope. */
export function expectError(res: ApiResponse, status: number, mentions?: string | RegExp): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toEqual({ error: { message: expect.any(String), status } });
  if (mentions !== undefined) expect(res.body.error.message).toMatch(mentions);
}
