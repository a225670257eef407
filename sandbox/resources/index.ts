/**
 * Every resource module of the sandbox, in registration (and seeding) order, one folder per family
 * (each resource's row in nodes/Stora/helpers/resources.ts): CRM first (the billing seed picks the seeded contacts by index), then inventory
 * and billing (seeded together by billing's seed), then the CRM link phase (points CRM records at the seeded sites,
 * unit types and tenancies), then webhook endpoints.
 */
import type { ResourceModule } from '../core/types';
import { modules as billing } from './billing';
import { crmLinksModule, modules as crm } from './crm';
import { webhookEndpoints } from './integration/webhookEndpoints';
import { modules as inventory } from './inventory';

export const modules: ResourceModule[] = [
	...crm,
	...inventory,
	...billing,
	crmLinksModule,
	webhookEndpoints,
];
