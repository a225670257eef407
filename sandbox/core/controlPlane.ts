/**
 * `/__sandbox/*`: test and developer controls. No authentication, not rate limited, not recorded in the request
 * log and never affected by faults. Errors use the API's error envelope.
 *
 *   GET    /__sandbox                     seed, clock, collections, scope catalogue, seeded OAuth client
 *   POST   /__sandbox/reset               {seed?}                    restore a seed (startup token survives)
 *   GET    /__sandbox/state/:collection   {<collection>: [rendered records]} (name or alias)
 *   POST   /__sandbox/tokens              {scopes: [...] | "all", expires_in?} → {access_token, scopes, creator, expires_at}
 *   POST   /__sandbox/oauth-clients       {redirect_uris, scopes?, name?} → {client_id, client_secret, ...}
 *   POST   /__sandbox/expire-tokens       {access_token?}  one token, or every token except the startup one
 *   POST   /__sandbox/clock               {advance_seconds}  moves the sandbox clock (back when negative) and
 *                                          sends the webhook retries due by then, answering once they are answered
 *   GET|POST|DELETE /__sandbox/faults     {match: {method?, path?}, responses: [...]} (see faults.ts)
 *   GET|DELETE /__sandbox/requests        API calls received (Authorization redacted)
 *   GET|DELETE /__sandbox/deliveries      webhook delivery attempts
 *   POST   /__sandbox/events              {type, id?} → {event}  emit a webhook event for a record
 *   GET|POST /__sandbox/config             {unknown_params?: accept|ignore|reject | {<path>: mode, ...},
 *                                           headers?: full|documented, retry_timestamp?: fresh|first,
 *                                           param_readings?: {<path>: {<parameter>|metadata[]|*: honour|ignore|reject}},
 *                                           signature_timestamp?: seconds|milliseconds, signature_encoding?: hex|base64,
 *                                           noise?: {writer?, bounds?, default_order?, contention?, pages?} (noise.ts; {} off)}
 *                                          → the modes in force (they survive resets; see documented.ts, readings.ts
 *                                          and webhooks.ts). An object `unknown_params` replaces the per-path modes
 *                                          (`unknown_params_by_path`), `param_readings` replaces the readings; the
 *                                          answer lists those and the signature modes only when not at their defaults
 */
import {
	HEADERS_MODES,
	UNKNOWN_PARAMS_MODES,
	type HeadersMode,
	type UnknownParamsMode,
} from './documented';
import { ApiError, invalidContent, invalidEndpoint, notFound } from './errors';
import { checkFault, type FaultMatch, type FaultResponse } from './faults';
import type { Sandbox } from './sandbox';
import type { ApiRecord } from './types';
import { noiseProblem, type NoiseMode } from './noise';
import { readingsProblem, type ParamReadings } from './readings';
import {
	RETRY_TIMESTAMP_MODES,
	SIGNATURE_ENCODINGS,
	SIGNATURE_TIMESTAMPS,
	type RetryTimestamp,
	type SignatureEncoding,
	type SignatureTimestamp,
} from './webhooks';
import { errorOutgoing, json, parseBody, type Incoming, type Outgoing } from './http';

type ControlHandler = (
	sb: Sandbox,
	body: Record<string, unknown>,
	params: Record<string, string>,
	incoming: Incoming,
) => unknown;

const routes: Array<{ method: string; pattern: RegExp; names: string[]; handler: ControlHandler }> =
	[];

function on(method: string, path: string, handler: ControlHandler) {
	const names: string[] = [];
	const pattern = new RegExp(
		'^' + path.replace(/:([a-z_]+)/g, (_m, name: string) => (names.push(name), '([^/]+)')) + '$',
	);
	routes.push({ method, pattern, names, handler });
}

export async function handleControl(sb: Sandbox, incoming: Incoming): Promise<Outgoing> {
	try {
		const route = routes.find((r) => r.method === incoming.method && r.pattern.test(incoming.path));
		if (!route) throw invalidEndpoint(incoming.method, incoming.path);
		const values = route.pattern.exec(incoming.path)!.slice(1);
		const params = Object.fromEntries(
			route.names.map((n, i) => [n, decodeURIComponent(values[i])]),
		);
		const parsed = parseBody(incoming.rawBody, incoming.headers['content-type']);
		const body =
			parsed && typeof parsed === 'object' && !Array.isArray(parsed)
				? (parsed as Record<string, unknown>)
				: {};
		const result = await route.handler(sb, body, params, incoming);
		return json(200, result, { 'X-Request-Id': incoming.requestId });
	} catch (error) {
		return errorOutgoing(error, incoming.requestId);
	}
}

const bad = (pointer: string, message: string) => invalidContent([{ message, pointer }]);

/** The three original modes always; the later ones only when set, so the answer for a default sandbox stays as it was. */
const modes = (sb: Sandbox) => ({
	unknown_params: sb.modes.unknownParams,
	headers: sb.modes.headers,
	retry_timestamp: sb.webhooks.retryTimestamp,
	...(Object.keys(sb.modes.unknownParamsByPath).length
		? { unknown_params_by_path: sb.modes.unknownParamsByPath }
		: {}),
	...(Object.keys(sb.modes.paramReadings).length ? { param_readings: sb.modes.paramReadings } : {}),
	...(sb.webhooks.signatureTimestamp !== 'seconds'
		? { signature_timestamp: sb.webhooks.signatureTimestamp }
		: {}),
	...(sb.webhooks.signatureEncoding !== 'hex'
		? { signature_encoding: sb.webhooks.signatureEncoding }
		: {}),
	...(sb.config.latencyMs > 0 ? { latency_ms: sb.config.latencyMs } : {}),
	...(sb.noise.active ? { noise: sb.noise.mode } : {}),
});

/** The longest latency the control plane takes: ten minutes, longer than any client waits. */
const MAX_LATENCY_MS = 600_000;

const isUnknownParamsMode = (value: unknown): value is UnknownParamsMode =>
	UNKNOWN_PARAMS_MODES.includes(value as UnknownParamsMode);
const isPlainObject = (value: unknown): value is Record<string, unknown> =>
	!!value && typeof value === 'object' && !Array.isArray(value);

on('GET', '/__sandbox', (sb) => ({
	seed: sb.seedName,
	modes: modes(sb),
	now: sb.now().toISOString(),
	collections: sb.collectionNames(),
	scopes: sb.allScopes(),
	files_port: sb.files.port,
	default_client: {
		client_id: sb.defaultClient().clientId,
		client_secret: sb.defaultClient().clientSecret,
		redirect_uris: sb.defaultClient().redirectUris,
	},
}));

on('POST', '/__sandbox/reset', (sb, body) => {
	const seed = body.seed === undefined ? sb.seedName : body.seed;
	if (typeof seed !== 'string') throw bad('/seed', 'The seed must be a string');
	sb.reset(seed);
	return { seed };
});

on('GET', '/__sandbox/config', (sb) => modes(sb));

/** Validates everything before changing anything, so a bad request leaves the modes as they were. */
on('POST', '/__sandbox/config', (sb, body) => {
	const known = [
		'unknown_params',
		'headers',
		'retry_timestamp',
		'param_readings',
		'signature_timestamp',
		'signature_encoding',
		'latency_ms',
		'noise',
	];
	const unknown = Object.keys(body).filter((k) => !known.includes(k));
	if (unknown.length)
		throw bad(
			`/${unknown[0]}`,
			`The property '${unknown[0]}' is not allowed (known: ${known.join(', ')})`,
		);
	const byPath = isPlainObject(body.unknown_params) ? body.unknown_params : undefined;
	if (byPath) {
		const wrong = Object.entries(byPath).find(
			([path, mode]) => !path.startsWith('/') || !isUnknownParamsMode(mode),
		);
		if (wrong)
			throw bad(
				'/unknown_params',
				`unknown_params['${wrong[0]}'] must be a path mapped to one of: ${UNKNOWN_PARAMS_MODES.join(', ')}`,
			);
	} else if (body.unknown_params !== undefined && !isUnknownParamsMode(body.unknown_params)) {
		throw bad(
			'/unknown_params',
			`unknown_params must be one of: ${UNKNOWN_PARAMS_MODES.join(', ')}, or an object of paths`,
		);
	}
	const readingsError =
		body.param_readings === undefined ? undefined : readingsProblem(body.param_readings);
	if (readingsError) throw bad('/param_readings', readingsError);
	if (
		body.signature_timestamp !== undefined &&
		!SIGNATURE_TIMESTAMPS.includes(body.signature_timestamp as SignatureTimestamp)
	) {
		throw bad(
			'/signature_timestamp',
			`signature_timestamp must be one of: ${SIGNATURE_TIMESTAMPS.join(', ')}`,
		);
	}
	if (
		body.signature_encoding !== undefined &&
		!SIGNATURE_ENCODINGS.includes(body.signature_encoding as SignatureEncoding)
	) {
		throw bad(
			'/signature_encoding',
			`signature_encoding must be one of: ${SIGNATURE_ENCODINGS.join(', ')}`,
		);
	}
	if (body.headers !== undefined && !HEADERS_MODES.includes(body.headers as HeadersMode)) {
		throw bad('/headers', `headers must be one of: ${HEADERS_MODES.join(', ')}`);
	}
	if (
		body.retry_timestamp !== undefined &&
		!RETRY_TIMESTAMP_MODES.includes(body.retry_timestamp as RetryTimestamp)
	) {
		throw bad(
			'/retry_timestamp',
			`retry_timestamp must be one of: ${RETRY_TIMESTAMP_MODES.join(', ')}`,
		);
	}
	const latency = body.latency_ms;
	if (
		latency !== undefined &&
		(typeof latency !== 'number' ||
			!Number.isInteger(latency) ||
			latency < 0 ||
			latency > MAX_LATENCY_MS)
	) {
		throw bad(
			'/latency_ms',
			`latency_ms must be a whole number of milliseconds from 0 to ${MAX_LATENCY_MS}`,
		);
	}
	const noiseError = body.noise === undefined ? undefined : noiseProblem(body.noise);
	if (noiseError) throw bad('/noise', noiseError);
	if (byPath) sb.modes.unknownParamsByPath = { ...(byPath as Record<string, UnknownParamsMode>) };
	else if (body.unknown_params !== undefined)
		sb.modes.unknownParams = body.unknown_params as UnknownParamsMode;
	if (body.param_readings !== undefined)
		sb.modes.paramReadings = structuredClone(body.param_readings as ParamReadings);
	if (body.signature_timestamp !== undefined)
		sb.webhooks.signatureTimestamp = body.signature_timestamp as SignatureTimestamp;
	if (body.signature_encoding !== undefined)
		sb.webhooks.signatureEncoding = body.signature_encoding as SignatureEncoding;
	if (body.headers !== undefined) sb.modes.headers = body.headers as HeadersMode;
	if (body.retry_timestamp !== undefined)
		sb.webhooks.retryTimestamp = body.retry_timestamp as RetryTimestamp;
	if (latency !== undefined) sb.config.latencyMs = latency as number;
	if (body.noise !== undefined) sb.noise.set(body.noise as NoiseMode);
	return modes(sb);
});

on('GET', '/__sandbox/state/:collection', (sb, _body, { collection }) => {
	const records = sb.state(collection);
	if (!records) throw notFound('Collection', collection);
	return { [collection]: records };
});

/**
 * Adds records to a collection (tests that need more data than a seed has, e.g. several pages of sites). Missing
 * `id`, `created_at` and `updated_at` are filled in; the records are stored as given otherwise.
 */
on('POST', '/__sandbox/state/:collection', (sb, body, { collection }) => {
	const options = sb.collectionOptions(collection);
	if (!options) throw notFound('Collection', collection);
	if (!Array.isArray(body.records)) throw bad('/records', 'records must be an array of objects');
	const { name, prefix } = options;
	const now = sb.now().toISOString();
	const added = (body.records as Array<Record<string, unknown>>).map((record) =>
		// `id` first, as every seeded record has it (CSV columns follow the records' key order).
		sb.insert(name, {
			id: typeof record.id === 'string' ? record.id : sb.newId(prefix),
			...record,
			created_at: typeof record.created_at === 'string' ? record.created_at : now,
			updated_at: typeof record.updated_at === 'string' ? record.updated_at : now,
		} as ApiRecord),
	);
	return { [collection]: added.map((record) => sb.renderPlain(name, record)) };
});

/** Removes one record (tests that change data while a list is being paged). */
on('DELETE', '/__sandbox/state/:collection/:id', (sb, _body, { collection, id }) => {
	const options = sb.collectionOptions(collection);
	if (!options) throw notFound('Collection', collection);
	sb.mustGet(options.name, id);
	sb.remove(options.name, id);
	return { deleted: id };
});

on('POST', '/__sandbox/tokens', (sb, body) => {
	const scopes = body.scopes === undefined || body.scopes === 'all' ? sb.allScopes() : body.scopes;
	if (!Array.isArray(scopes) || scopes.some((s) => typeof s !== 'string'))
		throw bad('/scopes', 'scopes must be "all" or an array of scope names');
	if (
		body.expires_in !== undefined &&
		(typeof body.expires_in !== 'number' || body.expires_in < 0)
	) {
		throw bad('/expires_in', 'expires_in must be a number of seconds');
	}
	const token = sb.issueStaticToken(scopes as string[], body.expires_in as number | undefined);
	return {
		access_token: token.token,
		scopes: token.scopes,
		creator: token.creator,
		expires_at: token.expiresAt === null ? null : new Date(token.expiresAt).toISOString(),
	};
});

on('POST', '/__sandbox/oauth-clients', (sb, body) => {
	const uris = body.redirect_uris;
	if (!Array.isArray(uris) || !uris.length || uris.some((u) => typeof u !== 'string')) {
		throw bad('/redirect_uris', 'redirect_uris must be a non-empty array of URLs');
	}
	if (
		body.scopes !== undefined &&
		(!Array.isArray(body.scopes) || body.scopes.some((s) => typeof s !== 'string'))
	) {
		throw bad('/scopes', 'scopes must be an array of scope names');
	}
	const client = sb.createClient({
		name: typeof body.name === 'string' ? body.name : undefined,
		redirectUris: uris as string[],
		scopes: body.scopes as string[] | undefined,
	});
	return {
		client_id: client.clientId,
		client_secret: client.clientSecret,
		application: { id: client.appId },
		name: client.name,
		redirect_uris: client.redirectUris,
		scopes: client.scopes,
	};
});

on('POST', '/__sandbox/expire-tokens', (sb, body) => {
	if (body.access_token !== undefined && typeof body.access_token !== 'string')
		throw bad('/access_token', 'access_token must be a string');
	const token = body.access_token as string | undefined;
	if (token && !sb.auth.tokens.has(token)) throw notFound('Access token');
	return { expired: sb.expireTokens(token) };
});

on('POST', '/__sandbox/clock', async (sb, body) => {
	if (typeof body.advance_seconds !== 'number' || !Number.isFinite(body.advance_seconds)) {
		throw bad('/advance_seconds', 'advance_seconds must be a number');
	}
	sb.clockOffsetMs += body.advance_seconds * 1000;
	await sb.webhooks.runDue();
	return { now: sb.now().toISOString() };
});

on('GET', '/__sandbox/faults', (sb) => ({ faults: sb.faults.list() }));
on('DELETE', '/__sandbox/faults', (sb) => {
	sb.faults.clear();
	return { faults: [] };
});
on('POST', '/__sandbox/faults', (sb, body) => {
	const match = (body.match ?? {}) as FaultMatch;
	if (typeof match !== 'object' || Array.isArray(match))
		throw bad('/match', 'match must be an object {method?, path?}');
	if (!Array.isArray(body.responses) || !body.responses.length)
		throw bad('/responses', 'responses must be a non-empty array');
	body.responses.forEach((r, i) => {
		const problem = checkFault(r);
		if (problem) throw bad(`/responses/${i}`, problem);
	});
	sb.faults.add({ method: match.method, path: match.path }, body.responses as FaultResponse[]);
	return { faults: sb.faults.list() };
});

on('GET', '/__sandbox/requests', (sb) => ({ requests: sb.requests }));
on('DELETE', '/__sandbox/requests', (sb) => {
	sb.requests.length = 0;
	return { requests: [] };
});

on('GET', '/__sandbox/deliveries', (sb) => ({ deliveries: sb.webhooks.deliveries }));
on('DELETE', '/__sandbox/deliveries', (sb) => {
	sb.webhooks.deliveries.length = 0;
	return { deliveries: [] };
});

on('POST', '/__sandbox/events', (sb, body) => {
	const type = body.type;
	if (typeof type !== 'string' || !/^[a-z_]+\.[a-z_]+$/.test(type))
		throw bad('/type', 'type must be an event type such as invoice.paid');
	let record;
	if (body.id !== undefined) {
		if (typeof body.id !== 'string') throw bad('/id', 'id must be a string');
		record = sb.find(body.id);
		if (!record) throw notFound('Record', body.id);
	} else {
		const collection = sb.collectionByKey(type.split('.')[0]);
		if (!collection)
			throw new ApiError(
				404,
				'resource_not_found',
				`No collection holds '${type.split('.')[0]}' records`,
			);
		record = sb.all(collection.name)[0];
		if (!record)
			throw new ApiError(404, 'resource_not_found', `The ${collection.name} collection is empty`);
	}
	return { event: sb.emitEvent(type, record) };
});
