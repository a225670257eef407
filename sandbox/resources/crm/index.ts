/**
 * CRM resource modules: contacts, deals and deal stages, opportunities, tasks, notes, timeline (events, sources,
 * templates), identity verifications, contract templates and contracts, staff. Each module holds its own demo
 * seed; `seedModule` runs them in a fixed order, because every id comes from one counter per sandbox and tests and
 * end-to-end fixtures depend on the exact ids. `modules` goes before the inventory and billing modules in the
 * registry (billing's seed picks the seeded contacts by index, see `DEMO_CONTACTS`); `crmLinksModule` goes after them
 * (it links the demo CRM records to seeded sites, unit types and tenancies). Dates are relative to `core.now()` at
 * fixed hours, so the same clock gives the same data; the `empty` seed creates nothing.
 */
import type { Ref, ResourceModule, SandboxCore } from '../../core/types';
import { contactsModule, seedContacts } from './contacts';
import { contractsModule, seedContracts } from './contracts';
import { dealsModule, seedDeals, seedStages, valueEstimate } from './deals';
import { identityVerificationsModule, seedIdentityVerifications } from './identityVerifications';
import { notesModule, seedNotes } from './notes';
import { opportunitiesModule, opportunityState, seedOpportunities } from './opportunities';
import { perSandbox, refId, safeAll } from './shared';
import { seedStaff, staffModule } from './staff';
import { seedTasks, tasksModule } from './tasks';
import { seedTimeline, timelineModule } from './timeline';

export { DEMO_CONTACTS } from './contacts';

/** Ids of the demo records by role, for the link phase (one per sandbox). */
interface DemoIds {
	deals: string[];
	opportunities: string[];
	tasks: string[];
	events: string[];
	contracts: string[];
}
const demoState = perSandbox<{ ids?: DemoIds }>(() => ({}));

/** The CRM part of the demo seed, module by module in id order. */
function seedDemo(core: SandboxCore) {
	const staff = seedStaff(core);
	const stages = seedStages(core);
	const contacts = seedContacts(core);
	const deals = seedDeals(core, contacts, stages, staff);
	const opportunities = seedOpportunities(core, contacts, deals, staff);
	const tasks = seedTasks(core, contacts, staff);
	seedNotes(core, contacts, tasks, staff);
	const events = seedTimeline(core, contacts, staff);
	seedIdentityVerifications(core, contacts);
	const contracts = seedContracts(core, contacts);
	const ids = (records: Array<{ id: string }>) => records.map((record) => record.id);
	// Keep the roles for the link phase.
	demoState.get(core).ids = {
		deals: ids(deals),
		opportunities: ids(opportunities),
		tasks: ids(tasks),
		events: ids(events),
		contracts: ids(contracts),
	};
}

/** Sets a stored field without bumping `updated_at` (seed-time links are part of the original data). */
function setStored(
	core: SandboxCore,
	collection: string,
	id: string,
	changes: Record<string, unknown>,
) {
	const record = core.get(collection, id);
	if (record) Object.assign(record, changes);
}

/**
 * Links the demo CRM records to inventory records once those exist: sites (round robin) on deals, opportunities,
 * tasks and timeline events; a unit type line item (and value estimate) on open deals; each contract's tenancy
 * (the contact's first tenancy). Idempotent; a no-op without inventory data.
 */
function linkDemo(core: SandboxCore) {
	const ids = demoState.get(core).ids;
	if (!ids) return;
	const sites = safeAll(core, 'sites');
	const unitTypes = safeAll(core, 'unit_types');
	if (sites.length) {
		const siteFor = (i: number): Ref => ({ id: sites[i % sites.length].id });
		ids.deals.forEach((id, i) => {
			const deal = core.get('deals', id);
			if (!deal) return;
			const site = siteFor(i);
			const changes: Record<string, unknown> = { site };
			const unitType =
				unitTypes.find((u) => refId(u.site) === site.id) ??
				unitTypes[i % Math.max(1, unitTypes.length)];
			if (unitType && deal.status === 'open') {
				const lineItems = [{ item: { id: unitType.id }, quantity: 1, type: 'unit_type' }];
				changes.line_items = lineItems;
				changes.value_estimate = valueEstimate(core, lineItems);
			}
			setStored(core, 'deals', id, changes);
		});
		ids.opportunities.forEach((id, i) => {
			const site = siteFor(i);
			const unitType = unitTypes.find((u) => refId(u.site) === site.id);
			setStored(core, 'opportunities', id, {
				site,
				line_items: unitType ? [{ item: { id: unitType.id }, quantity: 1, type: 'unit_type' }] : [],
			});
		});
		ids.tasks.forEach((id, i) => setStored(core, 'tasks', id, { site: siteFor(i) }));
		ids.events.forEach((id, i) => setStored(core, 'timeline_events', id, { site: siteFor(i) }));
	}
	const tenancies = safeAll(core, 'tenancies');
	for (const id of ids.contracts) {
		const contract = core.get('contracts', id);
		if (!contract) continue;
		const tenancy = tenancies.find((t) => refId(t.contact) === refId(contract.contact));
		if (tenancy) setStored(core, 'contracts', id, { tenancy: { id: tenancy.id } });
	}
}

/** Seeds the CRM collections (registered after every CRM module, so all their collections exist). */
const seedModule: ResourceModule = {
	register() {},
	seed(core, seed) {
		opportunityState.reset(core);
		demoState.reset(core);
		if (seed !== 'demo') return;
		seedDemo(core);
		linkDemo(core);
	},
};

/** Runs `linkDemo` after the billing seed (which seeds inventory too): register it after the billing modules. */
export const crmLinksModule: ResourceModule = {
	register() {},
	seed(core, seed) {
		if (seed === 'demo') linkDemo(core);
	},
};

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
