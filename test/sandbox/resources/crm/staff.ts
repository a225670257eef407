/**
 * Staff members: a collection only (no staff endpoint is documented). They appear as `creator` and
 * `assignee` references and expand to `{id, name, email, created_at, updated_at}` with `public.staff:read`.
 */
import type { ResourceModule } from '../../core/types';

export const staffModule: ResourceModule = {
	register(api) {
		api.collection({ name: 'staff', key: 'staff', prefix: 'staff_', scope: 'staff' });
	},
};
