/** Protection levels: list (sort by created_at), get, and POST /protection_levels/:id/base_price. */
import type { ResourceModule } from '../../core/types';
import { registerBasePrice, registerReadable } from './shared';

export const protectionLevels: ResourceModule = {
	register(api) {
		registerReadable(
			api,
			{ name: 'protection_levels', key: 'protection_level', prefix: 'plvl_', scope: 'protection_level' },
			{ path: 'protection_levels', param: 'protection_level_id', spec: { sortBy: ['created_at'] } },
		);
		registerBasePrice(api, {
			path: 'protection_levels',
			param: 'protection_level_id',
			collection: 'protection_levels',
			scope: 'protection_level',
		});
	},
};
