// The splitting service's deployed functions: slug → app factory (see supabase/config.toml).
import type { EdgeContext } from '../../edge/mod.ts';
import { createActivityApp } from './apps/activity.ts';
import { createExpensesApp } from './apps/expenses.ts';
import { createGroupsApp } from './apps/groups.ts';
import { createMembersApp } from './apps/members.ts';
import { createSettlementsApp } from './apps/settlements.ts';
import { createShareSettingsApp } from './apps/share-settings.ts';
import { createSharedViewApp } from './apps/shared-view.ts';

type AppFactory = (ctx: EdgeContext) => { fetch: (request: Request) => Response | Promise<Response> };

export const splittingFunctions: Record<string, AppFactory> = {
  'api-groups': createGroupsApp,
  'api-expenses': createExpensesApp,
  'api-members': createMembersApp,
  'api-settlements': createSettlementsApp,
  'api-activity': createActivityApp,
  'api-share-settings': createShareSettingsApp,
  'api-shared-view': createSharedViewApp,
};
