// The generic /v1/<resource>[/<id>] routes, for every resource of the registry.
import type { Context, Hono } from 'hono';
import { HttpError } from '../../../edge/mod.ts';
import type { AppDeps, AppEnv } from '../http/app-env.ts';
import { dataResponse } from '../http/respond.ts';
import { inCompany } from '../http/session.ts';
import { isUuid } from '../query/coerce.ts';
import { parseListQuery } from '../query/query-parser.ts';
import type { Resource } from '../registry/types.ts';
import { readJson, validateCreateBody, validateRow } from './body.ts';
import { deleteRow, getRow, insertRows, listRows, updateRow } from './crud.ts';

export function lookupResource(deps: AppDeps, path: string): Resource {
  const resource = deps.findResource(path);
  if (!resource) throw new HttpError(404, `Unknown resource '${path}'`);
  return resource;
}

export function writable(resource: Resource): Resource {
  if (resource.readOnly) {
    throw new HttpError(405, `${resource.path} is read-only`, { allow: 'GET' });
  }
  return resource;
}

export function checkedId(resource: Resource, id: string): string {
  if (!isUuid(id)) throw new HttpError(400, `Invalid ${resource.path} id '${id}': expected a uuid`);
  if (!resource.columns.some((c) => c.name === 'id')) throw new HttpError(404, `${resource.path} rows have no id`);
  return id.toLowerCase();
}

export function resourceRoutes(app: Hono<AppEnv>, deps: AppDeps): void {
  const { ctx } = deps;
  const resourceOf = (c: Context<AppEnv>) => lookupResource(deps, c.req.param('resource')!);

  app.get('/v1/:resource', async (c) => {
    const resource = resourceOf(c);
    const q = parseListQuery(resource, new URL(c.req.url).searchParams);
    const result = await inCompany(ctx, c.var.caller, ({ tx }) => listRows(tx, resource, q));
    return dataResponse(result.dataJson, 200, result.meta);
  });

  app.post('/v1/:resource', async (c) => {
    const resource = writable(resourceOf(c));
    const { rows, bulk } = validateCreateBody(resource, await readJson(c.req.raw));
    const json = await inCompany(ctx, c.var.caller, ({ tx }) => insertRows(tx, resource, rows));
    return dataResponse(bulk ? json : json.slice(1, -1), 201);
  });

  app.get('/v1/:resource/:id', async (c) => {
    const resource = resourceOf(c);
    const id = checkedId(resource, c.req.param('id'));
    return dataResponse(await inCompany(ctx, c.var.caller, ({ tx }) => getRow(tx, resource, id)));
  });

  app.patch('/v1/:resource/:id', async (c) => {
    const resource = writable(resourceOf(c));
    const id = checkedId(resource, c.req.param('id'));
    const patch = validateRow(resource, await readJson(c.req.raw), 'patch');
    return dataResponse(await inCompany(ctx, c.var.caller, ({ tx }) => updateRow(tx, resource, id, patch)));
  });

  app.delete('/v1/:resource/:id', async (c) => {
    const resource = writable(resourceOf(c));
    const id = checkedId(resource, c.req.param('id'));
    return dataResponse(await inCompany(ctx, c.var.caller, ({ tx }) => deleteRow(tx, resource, id)));
  });
}
