/** Tenancies: list (sort by created_at) and get. A tenancy is active while `ends_at` is null or in the future. */
import type { ResourceModule } from '../../core/types';
import { registerReadable } from './shared';

export const tenancies: ResourceModule = {
	register(api) {
		registerReadable(
			api,
			{ name: 'tenancies', key: 'tenancy', prefix: 'ten_', scope: 'tenancy' },
			{ path: 'tenancies', param: 'tenancy_id', spec: { sortBy: ['created_at'] } },
		);
	},
};
