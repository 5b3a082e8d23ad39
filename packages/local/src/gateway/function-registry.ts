// Maps each function slug of supabase/config.toml to the factory of its Hono app, so the gateway
// can run the same app a deployed functions/<slug>/index.ts serves, in-process.
import type { EdgeContext } from '../../../edge/mod.ts';
import { invoicingFunctions } from '../../../invoicing/src/functions.ts';
import { splittingFunctions } from '../../../splitting/src/functions.ts';

export type FetchApp = { fetch: (request: Request) => Response | Promise<Response> };
export type AppFactory = (ctx: EdgeContext) => FetchApp;

export const functionFactories: Record<string, AppFactory> = {
  ...splittingFunctions,
  ...invoicingFunctions,
};
