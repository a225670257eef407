/* eslint-disable @n8n/community-nodes/no-restricted-imports -- dev tool, never published */
/**
 * Test fixtures for the core's own tests: tiny resource modules (widgets → gadgets → makers, and a stand-in
 * `invoices` collection for webhook payloads) that exercise the list engine, expand, formats and errors without
 * depending on the real resource modules; a controllable clock; and a webhook receiver. The HTTP client for the API
 * and the control plane is ../client.ts.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { Json } from '../client';
import { validateBody } from './validate';
import type { ApiRecord, ResourceModule } from './types';

export const WIDGET_BASE = Date.parse('2025-01-01T00:00:00Z');
const DAY = 86_400_000;
export const WIDGET_NAMES = [
	'Widget zero',
	'Widget one',
	'Widget two',
	'Widget three, "the big one"',
	'Widget four',
	'Widget five',
	'Widget six',
];

/** Widget i: created at base + i days (5 and 6 share a timestamp), color red/blue/null, tier gold/silver. */
export const widgetsModule: ResourceModule = {
	register(api) {
		api.collection({ name: 'makers', key: 'maker', prefix: 'mkr_', scope: 'maker' });
		api.collection({ name: 'gadgets', key: 'gadget', prefix: 'gdg_', scope: 'gadget' });
		api.collection({
			name: 'widgets',
			key: 'widget',
			prefix: 'wdg_',
			scope: 'widget',
			// A derived field, to prove render applies on reads and the stored record stays untouched.
			render: (record) => ({ ...record, name_length: String(record.name).length }),
		});
		api.route(
			'GET',
			'/2025-09/widgets',
			{ scopes: ['public.widget:read'], formats: ['text/csv'] },
			(ctx) =>
				ctx.sandbox.list(ctx, 'widgets', ctx.sandbox.all('widgets'), {
					sortBy: ['created_at', 'name', 'updated_at'],
					filters: {
						color: { field: 'color', values: ['red', 'blue'], unspecified: true },
						gadget_id: { field: 'gadget.id' },
					},
					windows: { created: 'created_at', updated: 'updated_at' },
					metadata: true,
					search: { param: 'search', fields: ['name'] },
				}),
		);
		api.route(
			'GET',
			'/2025-09/widgets/:widget_id',
			{ scopes: ['public.widget:read'], formats: ['application/pdf'] },
			(ctx) =>
				ctx.sandbox.single(ctx, 'widgets', ctx.sandbox.mustGet('widgets', ctx.params.widget_id)),
		);
		api.route('POST', '/2025-09/widgets', { scopes: ['public.widget:write'] }, (ctx) => {
			const body = validateBody(ctx.body, {
				name: { type: 'string', required: true, minLength: 1 },
			});
			const now = ctx.sandbox.now().toISOString();
			const record = ctx.sandbox.insert('widgets', {
				id: ctx.sandbox.newId('wdg_'),
				name: body.name,
				color: null,
				gadget: null,
				metadata: {},
				created_at: now,
				updated_at: now,
			});
			return ctx.sandbox.single(ctx, 'widgets', record, 201);
		});
		api.route(
			'DELETE',
			'/2025-09/widgets/:widget_id',
			{ scopes: ['public.widget:write'] },
			(ctx) => {
				const widget = ctx.sandbox.mustGet('widgets', ctx.params.widget_id);
				ctx.sandbox.remove('widgets', widget.id);
				return ctx.sandbox.success(ctx, `Widget ${widget.id} deleted`);
			},
		);
		api.route('GET', '/2025-09/boom', { scopes: [] }, () => {
			throw new Error('kaboom');
		});
	},
	seed(core, seed) {
		if (seed !== 'demo') return;
		const at = (ms: number) => new Date(ms).toISOString();
		const maker = core.insert('makers', {
			id: core.newId('mkr_'),
			name: 'Acme',
			created_at: at(WIDGET_BASE),
			updated_at: at(WIDGET_BASE),
		});
		const gadgets = [0, 1].map((i) =>
			core.insert('gadgets', {
				id: core.newId('gdg_'),
				name: `Gadget ${i}`,
				maker: { id: maker.id },
				created_at: at(WIDGET_BASE),
				updated_at: at(WIDGET_BASE),
			}),
		);
		WIDGET_NAMES.forEach((name, i) => {
			const created = WIDGET_BASE + Math.min(i, 5) * DAY;
			core.insert('widgets', {
				id: core.newId('wdg_'),
				name,
				color: ['red', 'blue', null][i % 3],
				gadget: { id: gadgets[i % 2].id },
				metadata: { tier: i % 2 === 0 ? 'gold' : 'silver' },
				created_at: at(created),
				updated_at: at(created + 3_600_000),
			});
		});
	},
};

/** A stand-in `invoices` collection (key `invoice`, so `invoice.*` events find it) with one seeded record. */
export const invoicesModule: ResourceModule = {
	register(api) {
		api.collection({ name: 'invoices', key: 'invoice', prefix: 'inv_', scope: 'invoice' });
	},
	seed(core, seed) {
		if (seed !== 'demo') return;
		const gadget = core.all('gadgets')[0];
		core.insert('invoices', {
			id: core.newId('inv_'),
			number: 'INV-0001',
			status: 'paid',
			total: core.money(1500),
			gadget: gadget ? { id: gadget.id } : null,
			created_at: new Date(WIDGET_BASE).toISOString(),
			updated_at: new Date(WIDGET_BASE).toISOString(),
		});
	},
};

/** A clock tests move by hand. */
export function manualClock(start = '2025-06-01T12:00:00.000Z') {
	let now = Date.parse(start);
	return {
		clock: () => new Date(now),
		advance(ms: number) {
			now += ms;
		},
		set(iso: string) {
			now = Date.parse(iso);
		},
	};
}

export interface ReceivedRequest {
	headers: IncomingMessage['headers'];
	body: string;
}

/**
 * A webhook receiver on a free port answering with the queued statuses (then 200). Keeps every request as
 * received, and in `events` each payload's parsed `event` (`null` when the body is not JSON).
 */
export async function startReceiver(statuses: number[] = []) {
	const received: ReceivedRequest[] = [];
	const events: Json[] = [];
	const queue = [...statuses];
	const server: Server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			const body = Buffer.concat(chunks).toString('utf8');
			received.push({ headers: req.headers, body });
			try {
				events.push((JSON.parse(body) as { event: Json }).event);
			} catch {
				events.push(null);
			}
			res.writeHead(queue.shift() ?? 200, { 'Content-Type': 'text/plain' });
			res.end('ok');
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
	const port = (server.address() as AddressInfo).port;
	return {
		url: `http://127.0.0.1:${port}/hooks`,
		received,
		events,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

export type { ApiRecord };
