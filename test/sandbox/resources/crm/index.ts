/**
 * CRM resource modules: contacts, deals and deal stages, opportunities, tasks, notes, timeline (events, sources,
 * templates), identity verifications, contract templates and contracts, staff. `modules` goes before the billing
 * modules in the registry (billing's seed picks the seeded contacts by index); `crmLinksModule` goes after them
 * (it links the demo CRM records to seeded sites, unit types and tenancies).
 */
import type { ResourceModule } from '../../core/types';
import { contactsModule } from './contacts';
import { contractsModule } from './contracts';
import { dealsModule } from './deals';
import { identityVerificationsModule } from './identityVerifications';
import { notesModule } from './notes';
import { opportunitiesModule } from './opportunities';
import { crmLinksModule, seedModule } from './seed';
import { staffModule } from './staff';
import { tasksModule } from './tasks';
import { timelineModule } from './timeline';

export const modules: ResourceModule[] = [
	staffModule,
	contactsModule,
	dealsModule,
	opportunitiesModule,
	tasksModule,
	notesModule,
	timelineModule,
	identityVerificationsModule,
	contractsModule,
	seedModule,
];

export { crmLinksModule };
export { DEMO_CONTACTS } from './seed';
