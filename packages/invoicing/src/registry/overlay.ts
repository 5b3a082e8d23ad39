// The hand-written half of the registry: what the database cannot tell us. One entry per
// resource of the spec (paths), with the search columns and default sorts of the domain guide §3.
// Columns and types come from ../generated/tables.ts; registry.ts checks every name used here.
import type { ResourceOverlay, SortKey } from './types.ts';

const asc = (column: string): SortKey => ({ column, desc: false });
const desc = (column: string): SortKey => ({ column, desc: true });

// The guide's sort families (the engine appends `id` as the final tie-break).
const byName = [asc('name')];
const byPosition = [asc('sort_order'), asc('name')];
const byLineOrder = [asc('sort_order')];
const byDate = [desc('date'), desc('created_at')];
const newestFirst = [desc('created_at')];

function resource(
  path: string,
  table: string,
  searchColumns: string[],
  defaultSort: SortKey[],
  description: string,
  readOnly = false,
): ResourceOverlay {
  return { path, table, searchColumns, defaultSort, readOnly, description };
}

export const overlays: ResourceOverlay[] = [
  resource('parties', 'parties', ['name', 'phone', 'email', 'gstin', 'city'], byName,
    'Customers and suppliers: contact and GST details, opening balance, credit limit, loyalty.'),
  resource('items', 'items', ['name', 'item_code', 'hsn_code', 'barcode'], byName,
    'Products and services: HSN code, prices, GST rate, dual units, stock, images.'),
  resource('categories', 'categories', ['name'], byName, 'Item and expense categories.'),
  resource('units', 'units', ['name'], byName, 'User-defined units with their GST UQC.'),
  resource('invoices', 'invoices', ['invoice_number', 'party_name'], byDate,
    'Sale, purchase, sale-return and purchase-return invoices.'),
  resource('invoice-items', 'invoice_items', ['item_name', 'hsn_code'], byLineOrder,
    'Invoice line items; filter with ?invoice_id=.'),
  resource('payments', 'payments', ['payment_number', 'party_name', 'reference_no'], byDate,
    'Payments in (received) and out (paid).'),
  resource('expenses', 'expenses', ['expense_number', 'category', 'party_name', 'description'], byDate,
    'Business expenses with GST and an input-tax-credit flag.'),
  resource('expense-payments', 'expense_payments', ['reference_no', 'notes'], byDate,
    'Settlements against an expense.'),
  resource('documents', 'documents', ['doc_number', 'party_name'], byDate,
    'Estimates, sale orders, delivery challans and purchase orders (doc_type).'),
  resource('document-items', 'document_items', ['item_name', 'hsn_code'], byLineOrder,
    'Document line items; filter with ?document_id=.'),
  resource('recurring-invoices', 'recurring_invoices', ['name'], [asc('next_run_date')],
    'Schedules that generate invoices automatically.'),
  resource('stock-adjustments', 'stock_adjustments', ['reason', 'notes'], byDate,
    'Manual stock corrections: add, reduce or set.'),
  resource('loyalty-transactions', 'loyalty_transactions', ['type', 'notes'], byDate,
    'Loyalty points ledger: earned, redeemed, adjusted, expired, reversed.'),
  resource('invoice-templates', 'invoice_templates', ['name'], byName, 'Saved invoice layouts.'),
  resource('business-profile', 'business_profile', ['business_name'], newestFirst,
    'The company profile: GST registration, address, bank, branding, module settings.'),
  resource('restaurant-areas', 'restaurant_areas', ['name'], byPosition, 'Restaurant floors and sections.'),
  resource('restaurant-tables', 'restaurant_tables', ['name'], byPosition, 'Restaurant tables: status and seating.'),
  resource('kots', 'kots', ['kot_number', 'status'], newestFirst, 'Kitchen order tickets.'),
  resource('reservations', 'reservations', ['customer_name', 'phone'], [asc('reserved_at')], 'Table bookings.'),
  resource('store-settings', 'store_settings', ['store_name', 'slug'], newestFirst, 'Online store configuration.'),
  resource('store-items', 'store_items', ['display_name'], [asc('sort_order'), asc('display_name')],
    'The published online catalogue.'),
  resource('store-orders', 'store_orders', ['order_number', 'customer_name', 'phone'], newestFirst, 'Online orders.'),
  resource('store-order-items', 'store_order_items', ['item_name'], newestFirst, 'Online order lines.'),
  resource('store-customers', 'store_customers', ['name', 'phone', 'email'], newestFirst, 'Storefront customers.'),
  resource('shared-reports', 'shared_reports', ['title', 'email'], newestFirst, 'Reports shared with users, parties or e-mail addresses.'),
  resource('webhooks', 'webhooks', ['url', 'description'], newestFirst, 'Webhook endpoint subscriptions.'),
  resource('webhook-deliveries', 'webhook_deliveries', ['event', 'error'], newestFirst,
    'Webhook delivery attempts with status codes.', true),
  resource('activity-log', 'activity_log', ['action', 'entity_type', 'summary', 'user_name'], newestFirst,
    'Audit trail of every change, written by the database.', true),
  resource('members', 'members', ['name', 'email'], byName, 'Team members, roles and permissions.', true),
  resource('licenses', 'licenses', ['plan', 'status'], [desc('starts_at')], 'Licence history.', true),
];
