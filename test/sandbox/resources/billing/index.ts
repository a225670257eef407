/** The billing resource modules of the sandbox (sites, units, orders, invoices, price adjustments ...) and their seed. */
import type { ResourceModule } from '../../core/types';
import { coupons } from './coupons';
import { creditNotes } from './credit-notes';
import { images } from './images';
import { invoices } from './invoices';
import { orderLineItems } from './order-line-items';
import { orders } from './orders';
import { priceAdjustments } from './price-adjustments';
import { productCategories } from './product-categories';
import { products } from './products';
import { protectionLevels } from './protection-levels';
import { seedBilling } from './seed';
import { sites } from './sites';
import { subscriptions } from './subscriptions';
import { tenancies } from './tenancies';
import { unitAllocations } from './unit-allocations';
import { unitTypes } from './unit-types';
import { units } from './units';

/** Registers nothing; seeds every billing collection (after all modules registered and after the CRM seed). */
const billingSeed: ResourceModule = {
	register() {},
	seed: seedBilling,
};

export const modules: ResourceModule[] = [
	sites,
	unitTypes,
	units,
	unitAllocations,
	tenancies,
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
	images,
	billingSeed,
];
