/**
 * Every resource module of the sandbox, in registration (and seeding) order: CRM first (billing's seed picks
 * the seeded contacts by index), then billing, then the CRM link phase (points CRM records at the seeded
 * sites, unit types and tenancies), then webhook endpoints.
 */
import type { ResourceModule } from '../core/types';
import { modules as billing } from './billing';
import { crmLinksModule, modules as crm } from './crm';
import { webhookEndpoints } from './webhookEndpoints';

export const modules: ResourceModule[] = [...crm, ...billing, crmLinksModule, webhookEndpoints];
