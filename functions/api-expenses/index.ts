import { edgeContextFromEnv } from '../../packages/edge/mod.ts';
import { createExpensesApp } from '../../packages/splitting/src/apps/expenses.ts';

Deno.serve(createExpensesApp(edgeContextFromEnv()).fetch);
