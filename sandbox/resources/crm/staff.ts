/**
 * Staff members: a collection only (no staff endpoint is documented). They appear as `creator` and
 * `assignee` references and expand to `{id, name, email, created_at, updated_at}` with `public.staff:read`.
 */
import type { ApiRecord, ResourceModule, SandboxCore } from '../../core/types';
import { daysAgo } from './shared';

export const staffModule: ResourceModule = {
	register(api) {
		api.collection({ name: 'staff', key: 'staff', prefix: 'staff_', scope: 'staff' });
	},
};

/** Demo seed: four staff members, the `creator` and `assignee` of the other CRM records. */
export function seedStaff(core: SandboxCore): ApiRecord[] {
	const people = [
		['Alex Morgan', 'alex.morgan@acme-storage.test'],
		['Priya Shah', 'priya.shah@acme-storage.test'],
		['Tom Becker', 'tom.becker@acme-storage.test'],
		['Lucy Evans', 'lucy.evans@acme-storage.test'],
	];
	return people.map(([name, email], i) => {
		const at = daysAgo(core, 400 - i * 10, 8);
		return core.insert('staff', {
			id: core.newId('staff_'),
			name,
			email,
			created_at: at,
			updated_at: at,
		});
	});
}
