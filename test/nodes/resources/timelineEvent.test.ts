import { locator as byId, runStora } from '../../helpers/n8n';
import { findRecord, idOf, timelineRecords } from '../../helpers/records';
import type { StateRecord } from '../../../sandbox/client';
import { useResourceFixture } from '../../helpers/sandboxFixture';

describe('Stora node: Timeline Event', () => {
	const { client, credentials, seed } = useResourceFixture('contacts');
	let source: (name: string) => StateRecord;
	let template: (name: string) => StateRecord;
	beforeEach(async () => ({ source, template } = await timelineRecords(client)));

	it('creates a timeline event with source, template, contact, links and template variables', async () => {
		const contact = seed.contacts[6];
		const [site] = await client.state('sites');
		const result = await runStora({
			credentials: credentials(),
			parameters: {
				resource: 'timelineEvent',
				operation: 'create',
				timelineEventTimelineSourceId: source('Acme Gate Control').id,
				timelineEventTimelineTemplateId: template('Gate access').id,
				timelineEventContactId: { __rl: true, mode: 'list', value: contact.id },
				variables: { entry: [{ key: 'gate', value: 'North gate' }] },
				additionalFields: {
					siteId: site.id,
					externalId: 'gate-evt-77',
					externalUrl: 'https://gates.example.com/events/77',
				},
				options: { expand: ['source'] },
			},
		});
		expect(result.error).toBeUndefined();
		const [request] = await client.requests();
		expect(request).toMatchObject({
			method: 'POST',
			path: '/2025-09/timeline/events',
			query: { expand: 'source' },
		});
		expect(request.body).toEqual({
			source: { id: source('Acme Gate Control').id },
			template: { id: template('Gate access').id },
			contact: { id: contact.id },
			variables: { gate: 'North gate' },
			site: { id: site.id },
			external: { id: 'gate-evt-77', url: 'https://gates.example.com/events/77' },
		});
		const event = result.items[0].json;
		expect(event.source).toEqual(source('Acme Gate Control'));
		expect(event.description).toBe(
			`${String(contact.full_name)} accessed ${String(site.name)} through North gate`,
		);
		const stored = await findRecord(client, 'timeline_events', String(event.id));
		expect(stored).toMatchObject({
			contact: { id: contact.id },
			site: { id: site.id },
			variables: { gate: 'North gate' },
		});
	});

	it("sends no contact when left empty, and surfaces the API's error for the template's missing link", async () => {
		const result = await runStora({
			credentials: credentials(),
			parameters: {
				resource: 'timelineEvent',
				operation: 'create',
				timelineEventTimelineSourceId: source('Stora').id,
				timelineEventTimelineTemplateId: template('Payment reminder').id,
				timelineEventContactId: { __rl: true, mode: 'list', value: '' },
			},
		});
		const [request] = await client.requests();
		expect(request.body).toEqual({
			source: { id: source('Stora').id },
			template: { id: template('Payment reminder').id },
		});
		expect(result.error?.message).toMatch(/\[invalid_content\]$/);
		expect(result.error?.description).toContain("missing the required property 'contact'");
		expect(result.error?.description).toContain("missing the required property 'invoice'");
		expect((result.error as { httpCode?: string }).httpCode).toBe('422');
	});

	it('checks the external link and the dropdown IDs before any request', async () => {
		const base = {
			resource: 'timelineEvent',
			operation: 'create',
			timelineEventTimelineSourceId: source('CallDesk').id,
			timelineEventTimelineTemplateId: template('Call logged').id,
			timelineEventContactId: byId(seed.contacts[0].id),
		};
		const halfExternal = await runStora({
			credentials: credentials(),
			parameters: { ...base, additionalFields: { externalId: 'call-9' } },
		});
		const badUrl = await runStora({
			credentials: credentials(),
			parameters: {
				...base,
				additionalFields: { externalId: 'call-9', externalUrl: 'calldesk/9' },
			},
		});
		const badSource = await runStora({
			credentials: credentials(),
			parameters: { ...base, timelineEventTimelineSourceId: template('Call logged').id },
		});
		expect(halfExternal.error?.message).toBe('External ID and External URL go together');
		expect(badUrl.error?.message).toBe('External URL: "calldesk/9" is not a URL');
		expect(badSource.error?.message).toBe(
			`Source: "${template('Call logged').id}" is not a source ID`,
		);
		expect(await client.requests()).toEqual([]);
	});

	it('updates a timeline event: new variables re-render its generated description', async () => {
		const [event] = await client.state('timeline_events');
		await client.clearRequests();
		const result = await runStora({
			credentials: credentials(),
			parameters: {
				resource: 'timelineEvent',
				operation: 'update',
				timelineEventId: byId(event.id),
				updateFields: {
					variables: {
						entry: [
							{ key: 'topic', value: 'insurance' },
							{ key: 'duration', value: '12' },
						],
					},
				},
			},
		});
		expect(result.error).toBeUndefined();
		const [request] = await client.requests();
		expect(request).toMatchObject({
			method: 'PATCH',
			path: `/2025-09/timeline/events/${event.id}`,
			body: { variables: { topic: 'insurance', duration: '12' } },
		});
		const contact = seed.contacts.find((c) => c.id === idOf(event.contact))!;
		expect(result.items[0].json.description).toBe(
			`Call with ${String(contact.full_name)} about insurance (12 min)`,
		);
		expect(await findRecord(client, 'timeline_events', event.id)).toEqual(result.items[0].json);
	});
});
