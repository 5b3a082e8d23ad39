// The splitting service's deployed functions: slug → app factory (see supabase/config.toml).
import type { EdgeContext } from '../../edge/mod.ts';

type AppFactory = (ctx: EdgeContext) => { fetch: (request: Request) => Response | Promise<Response> };

export const splittingFunctions: Record<string, AppFactory> = {};
