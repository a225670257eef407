/**
 * The billing resource modules of the sandbox (subscriptions, orders, invoices, credit notes, coupons, products,
 * protection levels, price adjustments) and the seed of billing and inventory together. Each module holds its own demo
 * seed; `billingSeed` runs them in a fixed order (inventory's among billing's: unit types price with coupons,
 * tenancies come with orders and subscriptions), because every id comes from one counter per sandbox and tests and
 * end-to-end fixtures depend on the exact ids. It runs after the CRM seed and picks the seeded contacts by index (see
 * DEMO_CONTACTS in ../crm/contacts.ts); without CRM it still seeds the catalogue and the orders. Records are inserted
 * once in their final form (no `update`, so `updated_at` stays as seeded). Register after ../inventory's modules.
 */
import type { ApiRecord, ResourceModule, SandboxCore } from '../../core/types';
import { seedSites } from '../inventory/sites';
import { seedTenancies } from '../inventory/tenancies';
import { seedUnitTypes } from '../inventory/unitTypes';
import { freeUnitIn } from '../inventory/units';
import { coupons, seedCoupons } from './coupons';
import { creditNotes, seedCreditNotes } from './creditNotes';
import { invoices, seedInvoices } from './invoices';
import { orderLineItems } from './orderLineItems';
import { orders, orderSeeder, seedGeneratedOrders } from './orders';
import { priceAdjustments, seedPriceAdjustments } from './priceAdjustments';
import { productCategories, seedProductCategories } from './productCategories';
import { products, seedProducts } from './products';
import { protectionLevels, seedProtectionLevels } from './protectionLevels';
import { seedWriter } from './shared';
import { subscriptions } from './subscriptions';

/** Contacts seeded by the CRM module, or none when that module is missing. */
function contactsOf(core: SandboxCore): ApiRecord[] {
	try {
		return core.all('contacts') ?? [];
	} catch {
		return [];
	}
}

/** The billing and inventory part of the demo seed (the `empty` seed adds nothing), module by module in id order. */
function seedBilling(core: SandboxCore, seed: string): void {
	if (seed !== 'demo') return;
	const w = seedWriter(core);
	const couponRecords = seedCoupons(w);
	const levels = seedProtectionLevels(w);
	const categories = seedProductCategories(w);
	const siteRecords = seedSites(w);
	const productRecords = seedProducts(w, categories, siteRecords);
	const { unitTypes: types, units: unitRecords } = seedUnitTypes(w, siteRecords, couponRecords);
	const seeder = orderSeeder(w);
	const contacts = contactsOf(core);
	const { subscriptionsByContact, tenancyByContact } = seedTenancies(w, seeder, {
		contacts,
		sites: siteRecords,
		unitTypes: types,
		freeUnit: freeUnitIn(unitRecords),
		protectionLevels: levels,
		parking: productRecords[3],
	});
	const invoicesByContact = seedInvoices(w, subscriptionsByContact, tenancyByContact, types);
	seedCreditNotes(w, invoicesByContact);
	seedPriceAdjustments(w, subscriptionsByContact);
	seedGeneratedOrders(w, seeder, {
		contacts,
		sites: siteRecords,
		unitTypes: types,
		protectionLevels: levels,
		products: productRecords,
		coupons: couponRecords,
	});
	w.flush();
}

/** Registers nothing; seeds every billing and inventory collection (after all modules, and after the CRM seed). */
const billingSeed: ResourceModule = {
	register() {},
	seed: seedBilling,
};

export const modules: ResourceModule[] = [
	subscriptions,
	orders,
	orderLineItems,
	invoices,
	creditNotes,
	coupons,
	products,
	productCategories,
	protectionLevels,
	priceAdjustments,
	billingSeed,
];
