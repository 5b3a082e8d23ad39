import { edgeContextFromEnv } from '../../packages/edge/mod.ts';
import { createShareSettingsApp } from '../../packages/splitting/src/apps/share-settings.ts';

Deno.serve(createShareSettingsApp(edgeContextFromEnv()).fetch);
