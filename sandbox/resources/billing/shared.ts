/**
 * Helpers shared by the billing resource modules (sites, unit types, units, orders, invoices, price adjustments ...).
 * Everything here is used by at least two families; family-specific logic stays in the family's own file (the image
 * files of sites and unit types: inventory/imageFiles.ts).
 */
import { invalidContent, invalidUrlParam } from '../../core/errors';
import { toPdf } from '../../core/formats';
import type {
	ApiRecord,
	CollectionOptions,
	ListSpec,
	Money,
	Reply,
	RequestContext,
	RouteOptions,
	SandboxApi,
	SandboxCore,
} from '../../core/types';
import { validateBody, type Schema } from '../../core/validate';

export const V = '/2025-09';
export const CURRENCY = 'GBP';
/** VAT rate applied to order line items (the sandbox operator is UK based). */
export const TAX_RATE = 0.2;

/** The order `billing_period` enum; also the accepted keys of the base-price bodies. */
export const BILLING_PERIODS = [
	'monthly',
	'weekly',
	'every_four_weeks',
	'every_three_months',
	'every_six_months',
	'yearly',
	'one_time',
] as const;
export type BillingPeriod = (typeof BILLING_PERIODS)[number];

/* ------------------------------------------------------------------ records */

export const ref = (id: string | null | undefined) => (id ? { id } : null);

/** The id inside a stored `{ id }` reference (null when the reference is null or missing). */
export function refId(value: unknown): string | null {
	if (value && typeof value === 'object' && typeof (value as { id?: unknown }).id === 'string') {
		return (value as { id: string }).id;
	}
	return null;
}

export const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);
export const num = (value: unknown): number => (typeof value === 'number' ? value : 0);
export const obj = (value: unknown): Record<string, unknown> =>
	value && typeof value === 'object' && !Array.isArray(value)
		? (value as Record<string, unknown>)
		: {};
export const arr = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** The amount (minor units) of a stored money object. */
export const amountOf = (money: unknown): number => num(obj(money).amount);

export const money = (core: SandboxCore, amount: number): Money =>
	core.money(Math.round(amount), CURRENCY);

/* -------------------------------------------------------------------- dates */

const DAY = 86_400_000;

/** ISO 8601 UTC timestamp without milliseconds, as in the API's examples. */
export const iso = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z');
/** Calendar date `YYYY-MM-DD` (UTC). */
export const dateOnly = (date: Date) => date.toISOString().slice(0, 10);
export const addDays = (date: Date, days: number) => new Date(date.getTime() + days * DAY);
export const addMinutes = (date: Date, minutes: number) =>
	new Date(date.getTime() + minutes * 60_000);
/** Midnight UTC of the given instant's day. */
export const startOfDay = (date: Date) => new Date(`${dateOnly(date)}T00:00:00Z`);
export const parseDate = (date: string) => new Date(`${date.slice(0, 10)}T00:00:00Z`);
/** Whole days from `from` to `to` (calendar dates). */
export const daysBetween = (from: Date, to: Date) =>
	Math.round((startOfDay(to).getTime() - startOfDay(from).getTime()) / DAY);

function addMonths(date: Date, months: number): Date {
	const d = new Date(date.getTime());
	const day = d.getUTCDate();
	d.setUTCDate(1);
	d.setUTCMonth(d.getUTCMonth() + months);
	const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
	d.setUTCDate(Math.min(day, last));
	return d;
}

/** `date` moved by `count` billing periods; null for `one_time` (which never renews). */
export function addPeriods(date: Date, period: string, count: number): Date | null {
	switch (period) {
		case 'weekly':
			return addDays(date, 7 * count);
		case 'every_four_weeks':
			return addDays(date, 28 * count);
		case 'monthly':
			return addMonths(date, count);
		case 'every_three_months':
			return addMonths(date, 3 * count);
		case 'every_six_months':
			return addMonths(date, 6 * count);
		case 'yearly':
			return addMonths(date, 12 * count);
		default:
			return null;
	}
}

/* ------------------------------------------------------------------- prices */

export interface PriceEntry {
	billing_period: string;
	price: Money;
	payments_price_id: string;
}

/** A `prices` entry (`{billing_period, price, payments_price_id}`). */
export const priceEntry = (core: SandboxCore, period: string, amount: number): PriceEntry => ({
	billing_period: period,
	price: money(core, amount),
	payments_price_id: core.newId('price_'),
});

/** The record's price amount for a billing period (unit types, products, protection levels), or null. */
export function priceFor(record: ApiRecord, period: string | null): number | null {
	const prices = arr(record.prices) as PriceEntry[];
	const hit =
		prices.find((p) => p.billing_period === period) ?? (period === null ? prices[0] : undefined);
	return hit ? amountOf(hit.price) : null;
}

const sortPrices = (prices: PriceEntry[]) =>
	[...prices].sort(
		(a, b) =>
			BILLING_PERIODS.indexOf(a.billing_period as BillingPeriod) -
			BILLING_PERIODS.indexOf(b.billing_period as BillingPeriod),
	);

/* ------------------------------------------------------------------- routes */

/** Registers a collection and its plain GET list + GET one routes. */
export function registerReadable(
	api: SandboxApi,
	collection: CollectionOptions,
	options: {
		path: string;
		param: string;
		spec: ListSpec;
		/** Narrows the records before the core's list engine runs (derived filters the core cannot see). */
		prefilter?: (
			ctx: RequestContext,
			records: ApiRecord[],
		) => { ctx: RequestContext; records: ApiRecord[] };
		/** Answers `Accept: application/pdf` on the single-resource route: the document's title and text lines. */
		pdf?: (record: ApiRecord, core: SandboxCore) => { title: string; lines: string[] };
	},
) {
	api.collection(collection);
	const read = `public.${collection.scope}:read`;
	api.route('GET', `${V}/${options.path}`, { scopes: [read], formats: ['text/csv'] }, (ctx) => {
		const all = ctx.sandbox.all(collection.name);
		const { ctx: narrowed, records } = options.prefilter
			? options.prefilter(ctx, all)
			: { ctx, records: all };
		return ctx.sandbox.list(narrowed, collection.name, records, options.spec);
	});
	const getOptions: RouteOptions = { scopes: [read] };
	if (options.pdf) getOptions.formats = ['application/pdf'];
	api.route('GET', `${V}/${options.path}/:${options.param}`, getOptions, (ctx) => {
		const record = ctx.sandbox.mustGet(collection.name, ctx.params[options.param]);
		if (options.pdf && wantsPdf(ctx)) {
			return {
				status: 200,
				raw: documentPdf(options.pdf(record, ctx.sandbox)),
				headers: {
					'Content-Type': 'application/pdf',
					'Content-Disposition': `inline; filename="${String(record.number ?? record.id)}.pdf"`,
				},
			};
		}
		return ctx.sandbox.single(ctx, collection.name, record);
	});
}

const documentPdf = ({ title, lines }: { title: string; lines: string[] }) =>
	toPdf(
		title,
		lines.map((l) => l.replace(/£/g, 'GBP ')),
	);

const wantsPdf = (ctx: RequestContext) =>
	ctx.format
		? ctx.format === 'application/pdf'
		: (ctx.headers.accept ?? '').toLowerCase().includes('application/pdf');

/** Comma-separated values of a query parameter (empty when absent). */
export const multi = (ctx: RequestContext, param: string) =>
	(ctx.query[param] ?? '')
		.split(',')
		.map((v) => v.trim())
		.filter(Boolean);

/**
 * Applies a multi-value filter on a derived value (one the stored record does not hold, e.g. an allocation's
 * contact) and removes the parameter from the query so the core's list engine does not see it.
 */
export function derivedFilter(
	ctx: RequestContext,
	records: ApiRecord[],
	param: string,
	pick: (record: ApiRecord) => string | null,
	allowed?: string[],
	/** Accepted spellings mapped to stored values (e.g. `overlock` → `overlocked`). */
	aliases: Record<string, string> = {},
): { ctx: RequestContext; records: ApiRecord[] } {
	if (ctx.query[param] === undefined) return { ctx, records };
	const given = multi(ctx, param);
	const values = given.map((v) => aliases[v] ?? v);
	const bad = allowed ? given.filter((v) => !allowed.includes(v)) : [];
	if (bad.length) {
		throw invalidUrlParam([
			{
				message: `The value '${bad[0]}' of ${param} must be one of: ${allowed!.join(', ')}`,
				pointer: param,
			},
		]);
	}
	const query = { ...ctx.query };
	delete query[param];
	return {
		ctx: { ...ctx, query },
		records: values.length ? records.filter((r) => values.includes(pick(r) ?? '')) : records,
	};
}

/**
 * POST `<path>/:param/base_price`: body keys are billing periods, each `{amount: integer}`. Prices of the periods
 * given are replaced (or added); prices of other periods are kept.
 */
export function registerBasePrice(
	api: SandboxApi,
	options: {
		path: string;
		param: string;
		collection: string;
		scope: string;
		/** Extra fields to store with the new prices (e.g. a unit type's `live_prices`). */
		extra?: (record: ApiRecord, prices: PriceEntry[], core: SandboxCore) => Record<string, unknown>;
	},
) {
	const schema: Schema = Object.fromEntries(
		BILLING_PERIODS.map((p) => [
			p,
			{ type: 'object', fields: { amount: { type: 'integer', min: 0, required: true } } },
		]),
	);
	api.route(
		'POST',
		`${V}/${options.path}/:${options.param}/base_price`,
		{ scopes: [`public.${options.scope}:write`] },
		(ctx) => {
			const core = ctx.sandbox;
			const record = core.mustGet(options.collection, ctx.params[options.param]);
			const body = validateBody(ctx.body, schema);
			const periods = Object.keys(body);
			if (!periods.length) {
				throw invalidContent([
					{
						message: `At least one billing period (${BILLING_PERIODS.join(', ')}) must be given`,
						pointer: null,
					},
				]);
			}
			const kept = (arr(record.prices) as PriceEntry[]).filter(
				(p) => !periods.includes(p.billing_period),
			);
			const prices = sortPrices([
				...kept,
				...periods.map((p) => priceEntry(core, p, num(obj(body[p]).amount))),
			]);
			const updated = core.update(options.collection, record.id, {
				prices,
				...(options.extra ? options.extra(record, prices, core) : {}),
			});
			return core.single(ctx, options.collection, updated);
		},
	);
}

/** `{success: {message}, meta}` with extra members merged into `meta` (e.g. `unit_ids`). */
export function successWithMeta(
	ctx: RequestContext,
	message: string,
	meta: Record<string, unknown>,
): Reply {
	const reply = ctx.sandbox.success(ctx, message);
	const body = obj(reply.body);
	return { ...reply, body: { ...body, meta: { ...obj(body.meta), ...meta } } };
}

export const round100 = (amount: number) => Math.round(amount / 100) * 100;

/**
 * What the billing modules' demo seeds share: the core, the seed's clock helpers and `put`. Units and invoices change
 * after they are built (allocations, credit notes), so `put` holds them back until `flush`, which inserts them last;
 * everything else is final when built and inserted at once (order pricing reads coupons and products back).
 */
export interface SeedWriter {
	core: SandboxCore;
	now: Date;
	today: Date;
	ago(days: number, minutes?: number): string;
	stamp(days: number, minutes?: number): { created_at: string; updated_at: string };
	put(collection: string, record: ApiRecord): ApiRecord;
	flush(): void;
}

export function seedWriter(core: SandboxCore): SeedWriter {
	const now = core.now();
	const ago = (days: number, minutes = 0) => iso(addMinutes(addDays(now, -days), -minutes));
	const deferred: Record<string, ApiRecord[]> = { units: [], invoices: [] };
	return {
		core,
		now,
		today: startOfDay(now),
		ago,
		stamp: (days, minutes = 0) => ({
			created_at: ago(days, minutes),
			updated_at: ago(days, minutes),
		}),
		put(collection, record) {
			if (deferred[collection]) deferred[collection].push(record);
			else core.insert(collection, record);
			return record;
		},
		flush() {
			for (const [collection, records] of Object.entries(deferred)) {
				for (const record of records) core.insert(collection, record);
			}
		},
	};
}
