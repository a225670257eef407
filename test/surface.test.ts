/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test, never published */
/**
 * A saved workflow never breaks silently. The parameter surface of every node and credential (names, types,
 * option values, defaults, required, display conditions) is committed per node version in test/fixtures/surface/. A
 * change that could break a workflow saved with that version fails here: a parameter renamed or removed, an option
 * value removed, a default or type changed, a field newly required, display conditions narrowed. Adding an optional
 * parameter or an option value, or showing a parameter for one more operation, passes. Write the files again (STORA_SURFACE=write) only for a new node version.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type {
	ICredentialType,
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
	INodeType,
} from 'n8n-workflow';

import { StoraApi } from '../credentials/StoraApi.credentials';
import { StoraOAuth2Api } from '../credentials/StoraOAuth2Api.credentials';
import { Stora } from '../nodes/Stora/Stora.node';
import { StoraPollTrigger } from '../nodes/StoraPollTrigger/StoraPollTrigger.node';
import { StoraTrigger } from '../nodes/StoraTrigger/StoraTrigger.node';

const DIR = join(__dirname, 'fixtures/surface');

interface Entry {
	type: string;
	default?: unknown;
	required?: boolean;
	options?: string[];
}
type Surface = Record<string, Entry>;

/** Whether a property exists in node version `version` (its `@version` display condition, when it has one). */
function inVersion(property: INodeProperties, version: number | undefined): boolean {
	const shown = property.displayOptions?.show?.['@version'] as unknown[] | undefined;
	const hidden = property.displayOptions?.hide?.['@version'] as unknown[] | undefined;
	if (version === undefined) return true;
	return (!shown || shown.includes(version)) && !hidden?.includes(version);
}

type Conditions = { show?: Record<string, unknown>; hide?: Record<string, unknown> };

/**
 * Where a property shows, without `@version` (the version is the file's). A collection's field shows where its
 * collection does, narrowed by its own conditions: a root condition (`/resource`) replaces the collection's condition
 * on that parameter, one on a sibling field is kept as `./name`. So a field's key says where it can be set, whichever
 * way the descriptions spell it.
 */
function conditionsOf(property: INodeProperties, parent: Conditions, nested: boolean): Conditions {
	const own = property.displayOptions ?? {};
	const part = (
		inherited: Record<string, unknown> | undefined,
		mine: Record<string, unknown> | undefined,
	) => {
		const result: Record<string, unknown> = { ...(inherited ?? {}) };
		for (const [key, value] of Object.entries(mine ?? {})) {
			if (key === '@version') continue;
			const name = key.startsWith('/')
				? key.slice(1)
				: nested && !key.startsWith('@')
					? `./${key}`
					: key;
			result[name] = value;
		}
		delete result['@version'];
		return Object.keys(result).length ? result : undefined;
	};
	const conditions: Conditions = {
		show: part(parent.show, own.show as Record<string, unknown> | undefined),
		hide: part(parent.hide, own.hide as Record<string, unknown> | undefined),
	};
	return JSON.parse(JSON.stringify(conditions)) as Conditions;
}

const keyOf = (conditions: Conditions) =>
	conditions.show || conditions.hide ? ` ${JSON.stringify(conditions)}` : '';

/**
 * One entry per parameter of node version `version`, keyed by its path and the conditions under which it shows (a
 * name may exist per operation).
 */
export function surfaceOf(
	properties: INodeProperties[],
	version?: number,
	prefix = '',
	into: Surface = {},
	parent: Conditions = {},
): Surface {
	for (const property of properties) {
		if (!inVersion(property, version)) continue;
		const path = prefix ? `${prefix}.${property.name}` : property.name;
		const conditions = conditionsOf(property, parent, prefix !== '');
		const shown = keyOf(conditions);
		let key = `${path}${shown}`;
		for (let n = 2; key in into; n++) key = `${path}${shown} #${n}`;
		const values = (property.options ?? []) as Array<
			INodePropertyOptions | INodeProperties | INodePropertyCollection
		>;
		const entry: Entry = { type: property.type, default: property.default };
		if (property.required) entry.required = true;
		if (property.type === 'options' || property.type === 'multiOptions') {
			entry.options = (values as INodePropertyOptions[])
				.map((option) => String(option.value))
				.sort();
		}
		into[key] = entry;
		if (property.type === 'collection')
			surfaceOf(values as INodeProperties[], version, path, into, {
				show: conditions.show ?? {},
				hide: conditions.hide,
			});
		if (property.type === 'fixedCollection') {
			for (const group of values as INodePropertyCollection[])
				surfaceOf(group.values, version, `${path}.${group.name}`, into);
		}
	}
	return into;
}

/** A surface key's parameter path and display conditions (`surfaceOf`). */
function splitKey(key: string): { path: string; show: Record<string, unknown[]>; hide: unknown } {
	const bare = key.replace(/ #\d+$/, '');
	const at = bare.indexOf(' ');
	const conditions = (at < 0 ? {} : JSON.parse(bare.slice(at + 1))) as {
		show?: Record<string, unknown[]>;
		hide?: unknown;
	};
	return {
		path: at < 0 ? bare : bare.slice(0, at),
		show: conditions.show ?? {},
		hide: conditions.hide,
	};
}

/**
 * The entry of `after` that is `key` shown in more places: the same parameter, its `show` lists the same or longer
 * (one more operation shows it), nothing else changed. A saved workflow keeps every place it had.
 */
function widened(key: string, after: Surface): Entry | undefined {
	const was = splitKey(key);
	const found = Object.keys(after).find((candidate) => {
		const now = splitKey(candidate);
		if (now.path !== was.path || JSON.stringify(now.hide) !== JSON.stringify(was.hide))
			return false;
		if (Object.keys(now.show).sort().join() !== Object.keys(was.show).sort().join()) return false;
		return Object.entries(was.show).every(([name, values]) =>
			values.every((value) => JSON.stringify(now.show[name]).includes(JSON.stringify(value))),
		);
	});
	return found === undefined ? undefined : after[found];
}

/** What could break a saved workflow, going from `before` to `after`. */
export function breakingChanges(before: Surface, after: Surface): string[] {
	const problems: string[] = [];
	for (const [key, was] of Object.entries(before)) {
		const now = after[key] ?? widened(key, after);
		if (!now) {
			problems.push(`${key}: removed or renamed (or its display conditions changed)`);
			continue;
		}
		if (now.type !== was.type) problems.push(`${key}: type ${was.type} → ${now.type}`);
		// A tool's Description is text for a model, written from the operation: a new wording breaks nothing.
		if (
			JSON.stringify(now.default) !== JSON.stringify(was.default) &&
			!/^toolDescription /.test(key)
		) {
			problems.push(
				`${key}: default ${JSON.stringify(was.default)} → ${JSON.stringify(now.default)}`,
			);
		}
		if (!was.required && now.required) problems.push(`${key}: newly required`);
		const removed = (was.options ?? []).filter((value) => !(now.options ?? []).includes(value));
		if (removed.length) problems.push(`${key}: option values removed: ${removed.join(', ')}`);
	}
	for (const [key, now] of Object.entries(after)) {
		if (!(key in before) && now.required && (now.default === '' || now.default === undefined)) {
			problems.push(`${key}: a new required parameter without a default`);
		}
	}
	return problems;
}

const NODES: Array<[string, INodeType]> = [
	['stora', new Stora()],
	['storaTrigger', new StoraTrigger()],
	['storaPollTrigger', new StoraPollTrigger()],
];
const CREDENTIALS: Array<[string, ICredentialType]> = [
	['storaApi', new StoraApi()],
	['storaOAuth2Api', new StoraOAuth2Api()],
];

/** Every released surface: a node's per version of it, a credential's as it is (credentials have no versions). */
function surfaces(): Array<{ file: string; surface: Surface }> {
	const all: Array<{ file: string; surface: Surface }> = [];
	for (const [name, node] of NODES) {
		const versions = [node.description.version].flat();
		for (const version of versions) {
			all.push({
				file: `${name}@${version}.json`,
				surface: surfaceOf(node.description.properties, version),
			});
		}
	}
	for (const [name, credential] of CREDENTIALS)
		all.push({ file: `${name}.json`, surface: surfaceOf(credential.properties) });
	return all;
}

const HOW =
	'A saved workflow may break. Keep the released version as it is and make the change a new node version: add it to ' +
	"the node's `version` array and `defaultVersion`, show the changed parameters only for it (displayOptions " +
	"`show: { '@version': [...] }`), say it in CHANGELOG.md, then write its surface file with " +
	'STORA_SURFACE=write npx jest test/surface.test.ts (that writes only missing files; delete none of the released ones).';

describe('the parameter surface of every node version and credential (saved workflows keep working)', () => {
	const current = surfaces();
	if (process.env.STORA_SURFACE === 'write') {
		mkdirSync(DIR, { recursive: true });
		for (const { file, surface } of current) {
			if (!existsSync(join(DIR, file)))
				writeFileSync(join(DIR, file), `${JSON.stringify(surface, null, '\t')}\n`);
		}
	}

	it.each(current.map(({ file, surface }) => [file, surface] as const))(
		'%s changes nothing a saved workflow relies on',
		(file, surface) => {
			const path = join(DIR, file);
			if (!existsSync(path))
				throw new Error(
					`${file}: no committed surface. For a new node version, write it with STORA_SURFACE=write npx jest test/surface.test.ts`,
				);
			const committed = JSON.parse(readFileSync(path, 'utf8')) as Surface;
			const problems = breakingChanges(committed, surface);
			if (problems.length)
				throw new Error(`${file}:\n${problems.slice(0, 30).join('\n')}\n\n${HOW}`);
		},
	);

	it('tells a harmless change from a breaking one', () => {
		const base: Surface = {
			limit: { type: 'number', default: 50 },
			status: { type: 'options', default: 'open', options: ['closed', 'open'] },
		};
		expect(breakingChanges(base, { ...base, note: { type: 'string', default: '' } })).toEqual([]);
		expect(
			breakingChanges(base, {
				...base,
				status: { ...base.status, options: ['closed', 'open', 'waiting'] },
			}),
		).toEqual([]);
		expect(breakingChanges(base, { status: base.status, maxRecords: base.limit })).toEqual([
			'limit: removed or renamed (or its display conditions changed)',
		]);
		expect(breakingChanges(base, { ...base, limit: { type: 'number', default: 100 } })).toEqual([
			'limit: default 50 → 100',
		]);
		expect(
			breakingChanges(base, { ...base, status: { ...base.status, options: ['open'] } }),
		).toEqual(['status: option values removed: closed']);
		expect(breakingChanges(base, { ...base, limit: { ...base.limit, required: true } })).toEqual([
			'limit: newly required',
		]);
		expect(
			breakingChanges(base, { ...base, email: { type: 'string', default: '', required: true } }),
		).toEqual(['email: a new required parameter without a default']);
		const shown = (operations: string[]) =>
			`dealId {"show":{"operation":${JSON.stringify(operations)}}}`;
		const field: Entry = { type: 'string', default: '' };
		expect(
			breakingChanges(
				{ [shown(['get', 'update'])]: field },
				{ [shown(['get', 'star', 'update'])]: field },
			),
		).toEqual([]);
		expect(
			breakingChanges({ [shown(['get', 'update'])]: field }, { [shown(['get'])]: field }),
		).toEqual([
			`${shown(['get', 'update'])}: removed or renamed (or its display conditions changed)`,
		]);
	});
});
