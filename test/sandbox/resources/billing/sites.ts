/** Sites: list (sort by created_at/name/updated_at, fuzzy name search, created/updated windows) and get. */
import type { ResourceModule } from '../../core/types';
import { absoluteImages, registerReadable } from './shared';

export const sites: ResourceModule = {
	register(api) {
		registerReadable(
			api,
			{ name: 'sites', key: 'site', prefix: 'site_', scope: 'site', render: absoluteImages },
			{
				path: 'sites',
				param: 'site_id',
				spec: {
					sortBy: ['created_at', 'name', 'updated_at'],
					windows: { created: 'created_at', updated: 'updated_at' },
					search: { param: 'search', fields: ['name'] },
				},
			},
		);
	},
};
