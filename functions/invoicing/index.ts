// The deployed `invoicing` function: the /v1 API of spec/invoicing-api.md.
import { edgeContextFromEnv } from '../../packages/edge/mod.ts';
import { createInvoicingApp } from '../../packages/invoicing/src/app.ts';

Deno.serve(createInvoicingApp(edgeContextFromEnv()).fetch);
