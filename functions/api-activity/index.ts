import { edgeContextFromEnv } from '../../packages/edge/mod.ts';
import { createActivityApp } from '../../packages/splitting/src/apps/activity.ts';

Deno.serve(createActivityApp(edgeContextFromEnv()).fetch);
