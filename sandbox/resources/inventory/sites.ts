/** Sites: list (sort by created_at/name/updated_at, fuzzy name search, created/updated windows) and get. */
import type { ApiRecord, ResourceModule } from '../../core/types';
import { registerReadable, type SeedWriter } from '../billing/shared';
import { absoluteImages, imageSet } from './imageFiles';

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

/** The demo sites; `code` names their units, `factor` scales their unit type prices. */
export const SITES = [
	{
		name: 'Acme Storage London Bridge',
		code: 'LB',
		city: 'London',
		line_1: '12 Tooley Street',
		postal_code: 'SE1 2TU',
		phone: '+44 20 7946 0001',
		factor: 1.3,
		hours: 'weekdays',
	},
	{
		name: 'Acme Storage Manchester Central',
		code: 'MC',
		city: 'Manchester',
		line_1: '80 Great Ancoats Street',
		postal_code: 'M4 5AB',
		phone: '+44 161 496 0002',
		factor: 1,
		hours: 'always',
	},
	{
		name: 'Acme Storage Bristol Harbourside',
		code: 'BH',
		city: 'Bristol',
		line_1: '3 Canons Way',
		postal_code: 'BS1 5LL',
		phone: '+44 117 496 0003',
		factor: 1.1,
		hours: 'weekdays',
	},
	{
		name: 'Acme Storage Leeds North',
		code: 'LN',
		city: 'Leeds',
		line_1: '221 Harrogate Road',
		postal_code: 'LS7 4NY',
		phone: '+44 113 496 0004',
		factor: 0.9,
		hours: 'long',
	},
];

const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/** A day's `open` and `close` only with `set_hours`: the docs show them absent (not null) for 24-hour and closed days. */
function accessHours(kind: string) {
	return Object.fromEntries(
		DAYS.map((day, i) => {
			if (kind === 'always') return [day, { status: 'twenty_four_hours' }];
			if (kind === 'weekdays' && i === 6) return [day, { status: 'closed' }];
			const weekend = i >= 5;
			return [
				day,
				{
					status: 'set_hours',
					open: weekend ? '09:00' : kind === 'long' ? '06:00' : '08:00',
					close: weekend ? '17:00' : kind === 'long' ? '22:00' : '20:00',
				},
			];
		}),
	);
}

/** Demo seed: four sites with opening hours; the last has no images. */
export function seedSites(w: SeedWriter): ApiRecord[] {
	const { core, put, ago } = w;
	return SITES.map((s, i) => {
		const id = core.newId('site_');
		return put('sites', {
			id,
			access_hours: accessHours(s.hours),
			address: {
				city: s.city,
				line_1: s.line_1,
				line_2: i % 2 ? null : 'Unit 4',
				postal_code: s.postal_code,
			},
			created_at: ago(900 - i * 100),
			updated_at: ago(30 - i * 5),
			opened_at: ago(880 - i * 100),
			description: `Secure, clean self storage in ${s.city} with drive-up access.`,
			name: s.name,
			phone: s.phone,
			directions: {
				maps_url: `https://maps.google.com/?q=${encodeURIComponent(`${s.line_1}, ${s.city} ${s.postal_code}`)}`,
			},
			images: { default: i < 3 ? imageSet(id, 'site-photo.png') : null },
		});
	});
}
