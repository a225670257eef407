import { searchListMethod } from './searchList';

export const searchSites = searchListMethod({
	path: '/sites',
	label: (site) => String(site.name ?? site.id),
	searchParam: 'search',
});
