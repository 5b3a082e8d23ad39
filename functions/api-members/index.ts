import { edgeContextFromEnv } from '../../packages/edge/mod.ts';
import { createMembersApp } from '../../packages/splitting/src/apps/members.ts';

Deno.serve(createMembersApp(edgeContextFromEnv()).fetch);
