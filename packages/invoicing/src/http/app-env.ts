// What the middleware hands to the handlers of the invoicing app.
import type { EdgeContext } from '../../../edge/mod.ts';
import type { Resource } from '../registry/types.ts';
import type { Caller } from './auth.ts';

export interface AppDeps {
  ctx: EdgeContext;
  resources: Resource[];
  findResource: (path: string) => Resource | undefined;
}

export type AppEnv = { Variables: { caller: Caller } };
