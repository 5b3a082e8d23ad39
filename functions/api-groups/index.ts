import { edgeContextFromEnv } from '../../packages/edge/mod.ts';
import { createGroupsApp } from '../../packages/splitting/src/apps/groups.ts';

Deno.serve(createGroupsApp(edgeContextFromEnv()).fetch);
