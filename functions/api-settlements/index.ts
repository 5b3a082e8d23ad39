import { edgeContextFromEnv } from '../../packages/edge/mod.ts';
import { createSettlementsApp } from '../../packages/splitting/src/apps/settlements.ts';

Deno.serve(createSettlementsApp(edgeContextFromEnv()).fetch);
