/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test under test/, never published */
/**
 * test/realN8n/registry.mjs: which n8n 2.x newer than the suites' newest the registry lists, what npm says when one
 * does not install, and the sentence the versions tables carry. The module is plain ESM, run here by Node as
 * `npm run test:versions` runs it; no registry is asked.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = join(__dirname, '..', '..');

/** Calls `name` of test/realN8n/registry.mjs with `args` in a Node process of its own; returns what it returned. */
function call(name: string, args: unknown[]): unknown {
	const module = pathToFileURL(join(ROOT, 'test/realN8n/registry.mjs')).href;
	const script = `const m = await import(${JSON.stringify(module)}); console.log(JSON.stringify(m[${JSON.stringify(name)}](...${JSON.stringify(args)}) ?? null));`;
	return JSON.parse(
		execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })
			.trim()
			.split('\n')
			.at(-1)!,
	);
}

describe('test/realN8n/registry.mjs', () => {
	it('lists the stable 2.x newer than the newest tested, newest first (no 1.x, no pre-releases)', () => {
		const versions = [
			'1.123.81',
			'2.40.7',
			'2.41.0',
			'2.41.1',
			'2.41.3',
			'2.42.0-exp.1',
			'2.9.0',
			'2.42.0',
			'3.0.0',
		];
		expect(call('newer2x', [versions, '2.41.1'])).toEqual(['2.42.0', '2.41.3']);
		expect(call('newer2x', [versions, '2.42.0'])).toEqual([]);
	});

	it('names the package npm could not find, as npm 10 and 11 say it', () => {
		const etarget = [
			'npm error code ETARGET',
			'npm error notarget No matching version found for @n8n/agents@0.26.2.',
			"npm error notarget In most cases you or one of your dependencies are requesting a package version that doesn't exist.",
		].join('\n');
		expect(call('missingPackage', [etarget])).toBe('@n8n/agents@0.26.2');
		const e404 =
			"npm error 404  The requested resource 'n8n-core@2.41.2' could not be found or you do not have permission to access it.";
		expect(call('missingPackage', [e404])).toBe('n8n-core@2.41.2');
		expect(call('missingPackage', ['npm error code ECONNRESET'])).toBeNull();
	});

	it('says which newer 2.x does not install and why, and which installs untested', () => {
		const base = { newest: '2.41.1' };
		const blocked = call('registryLine', [
			{ ...base, newer: [{ n8n: '2.41.3', installs: false, missing: '@n8n/agents@0.26.2' }] },
		]);
		expect(blocked).toBe(
			'Newest n8n 2.x in the registry (`npm view n8n`): 2.41.3 does not install (its dependencies name ' +
				'@n8n/agents@0.26.2, which the registry does not have). 2.41.1, the newest 2.x that installs, is the newest tested.',
		);
		const open = { ...base, newer: [{ n8n: '2.42.0', installs: true }] };
		expect(call('registryLine', [open])).toContain('2.42.0 installs and is **not tested**');
		expect(call('untested', [open])).toEqual([{ n8n: '2.42.0', installs: true }]);
		expect(call('registryLine', [{ ...base, newer: [] }])).toBe(
			'Newest n8n 2.x in the registry (`npm view n8n`): 2.41.1, the newest tested here.',
		);
		expect(call('registryLine', [{ ...base, error: 'npm error code ENOTFOUND' }])).toContain(
			'not known, the registry did not answer',
		);
	});
});
