// The invoicing service's deployed function: slug → app factory (see supabase/config.toml).
import type { EdgeContext } from '../../edge/mod.ts';
import { createInvoicingApp } from './app.ts';

type AppFactory = (ctx: EdgeContext) => { fetch: (request: Request) => Response | Promise<Response> };

export const invoicingFunctions: Record<string, AppFactory> = { invoicing: createInvoicingApp };
