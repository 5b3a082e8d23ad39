import { edgeContextFromEnv } from '../../packages/edge/mod.ts';
import { createSharedViewApp } from '../../packages/splitting/src/apps/shared-view.ts';

Deno.serve(createSharedViewApp(edgeContextFromEnv()).fetch);
