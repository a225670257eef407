/** Timeline events (`/timeline/events`) over real HTTP: the description rendered from the template, validation, scopes. */
import type { Json } from '../../client';
import { useSandboxWithClients } from '../fixture';

const fx = useSandboxWithClients({ seed: 'demo', client: { redirect: 'follow' } });
let contacts: Json[];

beforeEach(async () => {
	contacts = await fx.api.state('contacts');
});

const V = '/2025-09';

describe('timeline', () => {
	test('create renders the description from the template; links not supplied are null', async () => {
		const [templates, sources, sites] = await Promise.all([
			fx.api.state('templates'),
			fx.api.state('sources'),
			fx.api.state('sites'),
		]);
		const res = await fx.api.post(`${V}/timeline/events`, {
			source: { id: sources[1].id },
			template: { id: templates[0].id },
			contact: { id: contacts[0].id },
			site: { id: sites[0].id },
			variables: { gate: 'Gate B' },
			external: { id: 'evt-1', url: 'https://gates.example.com/e/1' },
		});
		expect(res.status).toBe(201);
		const event = res.body.event;
		expect(event.description).toBe(
			`${contacts[0].full_name} accessed ${sites[0].name} through Gate B`,
		);
		expect(event).toMatchObject({
			invoice: null,
			subscription: null,
			tenancy: null,
			unit: null,
			unit_type: null,
			creator: { id: expect.stringMatching(/^tok_/) },
			external: { id: 'evt-1', url: 'https://gates.example.com/e/1' },
		});

		const own = await fx.api.post(`${V}/timeline/events`, {
			source: { id: sources[2].id },
			template: { id: templates[1].id },
			contact: { id: contacts[1].id },
			description: 'Custom text',
		});
		expect(own.body.event.description).toBe('Custom text');

		const updated = await fx.api.patch(`${V}/timeline/events/${event.id}`, {
			variables: { gate: 'Gate C' },
		});
		expect(updated.status).toBe(200);
		expect(updated.body.event.description).toContain('through Gate C');
		const kept = await fx.api.patch(`${V}/timeline/events/${own.body.event.id}`, {
			variables: { topic: 'x' },
		});
		expect(kept.body.event.description).toBe('Custom text');
		expect(
			(await fx.api.patch(`${V}/timeline/events/aevt_nope`, { description: 'x' })).status,
		).toBe(404);
	});

	test('create validation: predefined variables, string variables, unknown refs and members', async () => {
		const [templates, sources] = await Promise.all([
			fx.api.state('templates'),
			fx.api.state('sources'),
		]);
		const base = {
			source: { id: sources[1].id },
			template: { id: templates[0].id },
			contact: { id: contacts[0].id },
		};
		const noSite = await fx.api.post(`${V}/timeline/events`, base);
		expect(noSite.status).toBe(422);
		expect(noSite.body.error.code).toBe('invalid_content');
		expect(noSite.body.error.details).toEqual([
			{ message: expect.stringContaining("'site'"), pointer: null },
		]);
		const numbers = await fx.api.post(`${V}/timeline/events`, {
			...base,
			template: { id: templates[1].id },
			variables: { duration: 5 },
		});
		expect(numbers.body.error.details[0].pointer).toBe('/variables/duration');
		const unknownSource = await fx.api.post(`${V}/timeline/events`, {
			...base,
			source: { id: 'tsrc_nope' },
		});
		expect(unknownSource.status).toBe(404);
		const extra = await fx.api.post(`${V}/timeline/events`, { ...base, colour: 'red' });
		expect(extra.body.error.details.map((d: Json) => d.pointer)).toContain('/colour');
		const noTemplate = await fx.api.post(`${V}/timeline/events`, {
			source: base.source,
			contact: base.contact,
		});
		expect(noTemplate.body.error.details).toEqual([
			{ message: expect.stringContaining("'template'"), pointer: null },
		]);
		const token = await fx.api.token(['public.timeline_template:read']);
		expect(
			(await fx.api.post(`${V}/timeline/events`, base, { token })).body.error.message,
		).toContain('public.timeline_event:write');
	});
});
