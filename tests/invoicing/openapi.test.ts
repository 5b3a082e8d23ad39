// The OpenAPI document: generated from the registry, complete, and valid for Redocly's linter.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resources } from '../../packages/invoicing/src/registry/registry.ts';
import { startInvoicing, type InvoicingHarness } from './support.ts';

const run = promisify(execFile);
let h: InvoicingHarness;
let doc: any;

beforeAll(async () => {
  h = await startInvoicing();
  doc = (await h.call('/openapi.json')).body;
});
afterAll(async () => h?.stop());

describe('openapi.json', () => {
  it('is OpenAPI 3.1 with bearer and apikey security and the error envelope', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.securitySchemes.apikey).toMatchObject({ type: 'apiKey', in: 'header', name: 'apikey' });
    expect(doc.security).toEqual([{ bearerAuth: [], apikey: [] }]);
    expect(doc.components.schemas.Error.properties.error.required).toEqual(['message', 'status']);
    for (const pub of ['/v1/health', '/v1/openapi.json', '/v1/docs']) expect(doc.paths[pub].get.security).toEqual([]);
  });

  it('has every resource with its methods, list parameters and row schema', () => {
    for (const r of resources) {
      const list = doc.paths[`/v1/${r.path}`];
      const one = doc.paths[`/v1/${r.path}/{id}`];
      expect(Object.keys(list).sort(), r.path).toEqual(r.readOnly ? ['get'] : ['get', 'post']);
      expect(Object.keys(one).sort(), r.path).toEqual(r.readOnly ? ['get'] : ['delete', 'get', 'patch']);
      const params = list.get.parameters.map((p: { $ref?: string; name?: string }) => p.name ?? p.$ref!.split('/').pop());
      for (const p of ['limit', 'per_page', 'offset', 'page', 'sort', 'order', 'dir', 'search', 'from', 'to', 'date_field', 'select', 'count']) {
        expect(params, `${r.path} ${p}`).toContain(p);
      }
      for (const c of r.columns) expect(params, `${r.path} filter ${c.name}`).toContain(c.name);
    }
    for (const p of ['/v1/me', '/v1/companies', '/v1/companies/{id}/members', '/v1/invoices/{id}/items', '/v1/invoices/with-items']) {
      expect(doc.paths[p], p).toBeDefined();
    }
    // money is a JSON number in rows; the create body also takes a decimal string
    expect(doc.components.schemas.Invoice.properties.total.type).toBe('number');
    expect(doc.components.schemas.InvoiceCreate.properties.total.anyOf.map((s: { type: string }) => s.type)).toEqual(['number', 'string']);
    expect(doc.components.schemas.InvoiceCreate.properties).not.toHaveProperty('company_id');
  });

  it('passes `redocly lint` with no errors', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'openapi-'));
    try {
      const file = join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify(doc));
      const local = join(process.cwd(), 'node_modules/.bin/redocly');
      const [cmd, args] = existsSync(local)
        ? [local, ['lint', file, '--format=json']]
        : ['npx', ['--yes', '@redocly/cli@2.77.0', 'lint', file, '--format=json']];
      const { stdout } = await run(cmd, args, { maxBuffer: 64 << 20, env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } });
      const report = JSON.parse(stdout.slice(stdout.indexOf('{')));
      const errors = report.problems.filter((p: { severity: string }) => p.severity === 'error');
      expect(errors).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
