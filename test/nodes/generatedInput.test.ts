/**
 * Generated bad input, across every operation of the Stora node: parameter sets built from the node's own
 * description (every visible parameter of the operation, each given a value from a hostile generator: wrong ID
 * prefixes, empty and huge strings, unicode and control characters, invalid dates, numbers out of range, expressions
 * that yield objects, arrays or null, and `../`, `?`, `#`, `%00` in IDs and metadata keys), run in n8n's real engine
 * against the sandbox. Each must end in one of two ways: a clear error before any request (not a TypeError), or
 * requests only to the operation's own method and path, answered by the API. The seed is fixed, so a failure
 * reproduces; fast-check prints the smallest failing parameter set.
 */
import fc from 'fast-check';
import type { INodeParameters, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { OAUTH_PATH } from '../../nodes/Stora/helpers/constants';
import { Stora } from '../../nodes/Stora/Stora.node';
import { runStora } from '../helpers/n8n';
import { useSandboxForNode } from '../helpers/sandboxFixture';
import { printFigure, recordFigures } from '../helpers/figures';

jest.setTimeout(600_000);

const SEED = 20251122;
const RUNS = 1100;

interface Operation {
	resource: string;
	operation: string;
	method: string;
	/** The operation's path, with each `{recordId}` as one path segment. */
	path: RegExp;
	fields: INodeProperties[];
}

const properties = new Stora().description.properties;

function shownFor(property: INodeProperties, resource: string, operation: string): boolean {
	const show = property.displayOptions?.show ?? {};
	const resources = show.resource as string[] | undefined;
	const operations = show.operation as string[] | undefined;
	return !!resources?.includes(resource) && (!operations || operations.includes(operation));
}

/** Every operation with its fields and the path it may send to, read from the node description. */
function operations(): Operation[] {
	const resourceProperty = properties.find((property) => property.name === 'resource')!;
	const found: Operation[] = [];
	for (const { value: resource } of resourceProperty.options as INodePropertyOptions[]) {
		const operationProperty = properties.find(
			(property) => property.name === 'operation' && shownFor(property, String(resource), ''),
		)!;
		for (const option of operationProperty.options as INodePropertyOptions[]) {
			const request = option.routing?.request ?? {};
			const url = String(request.url ?? '').replace(/^=/, '');
			const pattern = url
				.split(/\{\w+\}/)
				.map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
				.join('[^/?#]+');
			found.push({
				resource: String(resource),
				operation: String(option.value),
				method: String(request.method ?? 'GET'),
				// The access-token operations live beside the versioned API: the transport sends /oauth2/... there.
				path: new RegExp(`^${OAUTH_PATH.test(url) ? '' : '/2025-09'}${pattern}$`),
				fields: properties.filter(
					(property) =>
						!['resource', 'operation'].includes(property.name) &&
						shownFor(property, String(resource), String(option.value)),
				),
			});
		}
	}
	return found;
}

/** The ID prefixes a locator accepts, from its "By ID" validation pattern. */
function prefixesOf(field: INodeProperties): string[] {
	const mode = field.modes?.find((candidate) => candidate.name === 'id');
	const regex = String(
		(mode?.validation?.[0] as { properties?: { regex?: string } } | undefined)?.properties?.regex ??
			'',
	);
	return /\(\?:([^)]*)\)/.exec(regex)?.[1].split('|') ?? [];
}

const expressionValues = fc.constantFrom(
	'={{ { "a": 1 } }}',
	'={{ [1, 2] }}',
	'={{ null }}',
	'={{ undefined }}',
	'={{ 42 }}',
	'={{ true }}',
);
const injections = fc.constantFrom(
	'../',
	'../../sites',
	'?limit=1',
	'#fragment',
	'%00',
	'%2F..%2F',
	'\u0000',
	'a/b',
	' ',
);
// A text starting with "=" is an n8n expression; a broken one is n8n's own error in the editor, not the node's.
const notAnExpression = (text: string) => !text.startsWith('=');
const hostileStrings = fc.oneof(
	fc.constant(''),
	fc.string({ maxLength: 30 }).filter(notAnExpression),
	fc.string({ unit: 'grapheme', maxLength: 30 }).filter(notAnExpression),
	fc.string({
		unit: fc.constantFrom('\u0000', '\u0007', '\n', '\r', '\t', '\u202e', '\ufeff', '\ud83d\ude00'),
		maxLength: 10,
	}),
	fc.constant('x'.repeat(100_000)),
	injections,
	expressionValues,
);
const hostileDates = fc.oneof(
	fc.constantFrom(
		'31/02/2027',
		'2027-13-01',
		'2027-02-30T10:00:00Z',
		'yesterday',
		'0',
		'-1',
		'9999999999999',
		'2027-01-01T25:00:00Z',
	),
	fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
	hostileStrings,
);
const hostileNumbers = fc.oneof(
	fc.constantFrom(-1, 0, 1, 101, 1e9, -1e9, 0.5, Number.MAX_SAFE_INTEGER),
	fc.integer(),
	fc.double(),
	expressionValues,
);

function idValues(prefixes: string[]) {
	const good = prefixes.length ? fc.constantFrom(...prefixes) : fc.constant('con_');
	return fc.oneof(
		// Well-formed IDs of the right kind (most do not exist: a 404 is a clear answer too).
		fc
			.tuple(good, fc.stringMatching(/^[A-Za-z0-9]{1,16}$/))
			.map(([prefix, rest]) => `${prefix}${rest}`),
		// The wrong kind, or a right prefix with something appended that must never leave its path segment.
		fc
			.tuple(
				fc.constantFrom('xyz_', 'con_', 'site_', 'inv_', ''),
				fc.stringMatching(/^[A-Za-z0-9]{1,8}$/),
			)
			.map(([p, r]) => `${p}${r}`),
		fc.tuple(good, injections).map(([prefix, injection]) => `${prefix}abc${injection}`),
		hostileStrings,
	);
}

function valueFor(field: INodeProperties): fc.Arbitrary<unknown> {
	switch (field.type) {
		case 'resourceLocator':
			return fc
				.tuple(idValues(prefixesOf(field)), fc.constantFrom('id', 'list'))
				.map(([value, mode]) => ({ __rl: true, mode, value }));
		case 'number':
			return hostileNumbers;
		case 'boolean':
			return fc.oneof(fc.boolean(), expressionValues);
		case 'dateTime':
			return hostileDates;
		case 'options': {
			// Dropdowns loaded from the API hold record IDs.
			const values = ((field.options ?? []) as INodePropertyOptions[]).map(
				(option) => option.value,
			);
			if (!values.length) return idValues([]);
			return fc.oneof(fc.constantFrom(...values), fc.constant('nonsense'), expressionValues);
		}
		case 'multiOptions': {
			const values = ((field.options ?? []) as INodePropertyOptions[]).map(
				(option) => option.value,
			);
			if (!values.length) return fc.oneof(fc.array(idValues([]), { maxLength: 3 }), hostileStrings);
			return fc.oneof(fc.subarray(values), fc.constant(['nonsense']), expressionValues);
		}
		case 'collection': {
			const members = (field.options as INodeProperties[]) ?? [];
			if (!members.length) return fc.constant({});
			return fc
				.subarray(members, { maxLength: Math.min(4, members.length) })
				.chain((chosen) =>
					fc.tuple(
						...chosen.map((member) =>
							valueFor(member).map((value) => [member.name, value] as const),
						),
					),
				)
				.map((entries) => Object.fromEntries(entries));
		}
		case 'fixedCollection':
			// Metadata pairs (and the like): hostile keys and values.
			return fc
				.array(fc.record({ key: fc.oneof(hostileStrings, injections), value: hostileStrings }), {
					maxLength: 3,
				})
				.map((entry) => ({ entry }));
		case 'json':
			return fc.oneof(fc.constantFrom('{', '[]', 'null', '{"a":'), hostileStrings);
		default:
			return fc.oneof(
				hostileStrings,
				fc.constant('Plain text'),
				fc.emailAddress().filter(notAnExpression),
			);
	}
}

function parameterSet(operation: Operation): fc.Arbitrary<INodeParameters> {
	const entries = operation.fields
		.filter((field) => field.name !== 'authentication' && field.type !== 'notice')
		.map((field) => valueFor(field).map((value) => [field.name, value] as const));
	return fc.tuple(...entries).map(
		(pairs) =>
			({
				resource: operation.resource,
				operation: operation.operation,
				...Object.fromEntries(pairs),
			}) as INodeParameters,
	);
}

/**
 * The display names of the parameters `parameters` sets: each top-level one, a collection's and each member it sets,
 * a fixed collection's with its members'.
 */
function displayNamesSet(fields: INodeProperties[], parameters: INodeParameters): string[] {
	return fields.flatMap((field) => {
		if (!(field.name in parameters)) return [];
		const value = parameters[field.name];
		const members = (field.options ?? []) as Array<
			INodeProperties & { values?: INodeProperties[] }
		>;
		if (field.type === 'collection' && value && typeof value === 'object') {
			return [
				field.displayName,
				...displayNamesSet(
					members.filter((member) => 'displayName' in member),
					value as INodeParameters,
				),
			];
		}
		if (field.type === 'fixedCollection') {
			return [
				field.displayName,
				...members.flatMap((entry) => (entry.values ?? []).map((inner) => inner.displayName)),
			];
		}
		return [field.displayName];
	});
}

/** A display name as a message may write it: in any case, a dropdown's without n8n's " Name or ID" suffix. */
function spellings(displayName: string): RegExp {
	const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
	const short = displayName.replace(/ Name or ID$/, '');
	// Whole words: "Name" must not be found inside "Names".
	return new RegExp(`(?<![\\w])(${escape(displayName)}|${escape(short)})(?![\\w])`, 'i');
}

/**
 * Whether a refusal names the parameter it is about: the display name of a parameter this set gives a value. n8n's
 * own check (a locator's pattern, a required value) lists its problems as lines under "The 'Stora' node has
 * issues:": then every line must name one.
 */
function namesAParameter(
	operation: Operation,
	parameters: INodeParameters,
	message: string,
): boolean {
	const names = displayNamesSet(operation.fields, parameters).map(spellings);
	const issues = /^The 'Stora' node has issues:\n((?:- .*(?:\n|$))+)$/.exec(message)?.[1];
	const lines = issues ? issues.trim().split('\n') : [message];
	return lines.every((line) => names.some((name) => name.test(line)));
}

/** n8n checks a locator's pattern in a VM with a 250 ms limit, which a loaded machine can exceed: its own failure. */
const N8N_REGEX_TIMEOUT = 'Regular expression execution timed out';

const CRASH =
	/TypeError|ReferenceError|RangeError|Cannot read prop|is not a function|is not iterable|undefined is not a|\[object Object\]/;

describe('generated bad input across every operation', () => {
	// Documented rate-limit headers only, as in every reliability figure (this sandbox has no limits).
	const fixture = useSandboxForNode({ resetEach: false, headers: 'documented' });
	const all = operations();

	it(`${RUNS} generated parameter sets: a clear error before any request, or a request to the operation's own path`, async () => {
		const tally = { runs: 0, localErrors: 0, sent: 0, apiErrors: 0, succeeded: 0 };
		const byStatus: Record<string, number> = {};
		const rejected: string[] = [];
		const unnamed: string[] = [];
		const perOperation = new Set<string>();
		const property = fc.asyncProperty(
			// The parameters alone: they name resource and operation, and keep a counterexample short.
			fc.constantFrom(...all).chain(parameterSet),
			async (parameters) => {
				const operation = all.find(
					(candidate) =>
						candidate.resource === parameters.resource &&
						candidate.operation === parameters.operation,
				)!;
				tally.runs++;
				perOperation.add(`${operation.resource}.${operation.operation}`);
				if (tally.runs % 100 === 0) await fixture.client.reset('demo');
				await fixture.client.clearRequests();
				let result = await runStora({ credentials: fixture.credentials(), parameters });
				for (let again = 0; again < 2 && result.error?.message === N8N_REGEX_TIMEOUT; again++) {
					await fixture.client.clearRequests();
					result = await runStora({ credentials: fixture.credentials(), parameters });
				}
				const requests = await fixture.client.requests();
				const error = result.error as
					| { message?: string; description?: string | null; httpCode?: string }
					| undefined;
				const text = `${error?.message ?? ''}\n${error?.description ?? ''}`;
				expect(text).not.toMatch(CRASH);
				if (requests.length === 0) {
					// Refused before any request: with a message, never a silent empty result.
					expect(error?.message).toBeTruthy();
					if (!namesAParameter(operation, parameters, String(error?.message)))
						unnamed.push(
							`${parameters.resource}.${parameters.operation}: ${error?.message} | ${JSON.stringify(parameters).slice(0, 400)}`,
						);
					tally.localErrors++;
					return;
				}
				tally.sent++;
				for (const request of requests) {
					expect(`${request.method} ${request.path}`).toMatch(
						new RegExp(`^${operation.method} ${operation.path.source.slice(1, -1)}$`),
					);
				}
				if (error) {
					// The API's own answer, with its status: a well-formed request it refused (unknown ID, conflict, ...).
					expect(error.httpCode).toMatch(/^[45]\d\d$/);
					tally.apiErrors++;
					byStatus[String(error.httpCode)] = (byStatus[String(error.httpCode)] ?? 0) + 1;
					if (error.httpCode === '422')
						rejected.push(
							`${parameters.resource}.${parameters.operation}: ${error.message} ${String(error.description).split('\n')[0]} ${JSON.stringify(requests[0].body).slice(0, 300)}`,
						);
				} else {
					tally.succeeded++;
				}
			},
		);
		await fc.assert(property, { seed: SEED, numRuns: RUNS, endOnFailure: true });
		if (rejected.length)
			printFigure(`generated input refused by the sandbox as invalid:\n${rejected.join('\n')}`);
		expect(tally.runs).toBe(RUNS);
		expect(perOperation.size).toBe(all.length);
		// Nothing the node can check locally reaches the API to be refused as invalid.
		expect(rejected).toEqual([]);
		// Every local refusal names the parameter it is about.
		expect(unnamed).toEqual([]);
		const answers = Object.entries(byStatus)
			.sort(([a], [b]) => a.localeCompare(b))
			.map(([status, count]) => `${count} answered ${status}`);
		recordFigures('reliability', 'generatedInput', {
			cells: [
				`Generated bad input: ${RUNS.toLocaleString('en')} parameter sets over all ${all.length} operations (wrong ID prefixes, empty and 100,000-character strings, unicode and control characters, invalid dates, numbers out of range, expressions giving objects, arrays or null, \`../\`, \`?\`, \`#\`, \`%00\` in IDs and metadata keys), fast-check seed ${SEED}`,
				'`test/nodes/generatedInput.test.ts`',
				`${tally.localErrors} refused before any request with a message naming the parameter by its display name; ${tally.sent} sent to the operation's own path only (${[`${tally.succeeded} succeeded`, ...answers].join(', ')}); 0 crashes, ${rejected.length} requests Stora refused as invalid`,
			],
			figures: {
				runs: tally.runs,
				operations: all.length,
				seed: SEED,
				refusedBeforeSending: tally.localErrors,
				sent: tally.sent,
				succeeded: tally.succeeded,
				...byStatus,
			},
		});
	});
});
