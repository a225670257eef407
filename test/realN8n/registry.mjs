// Whether the newest n8n the suites run (NEWEST in versions.mjs) is the newest n8n 2.x the package registry offers
// that installs. The registry can list an n8n whose exact-pinned dependencies it does not hold (n8n 2.41.3 pins
// n8n-core 2.41.2, @n8n/agents 0.26.2 and more that are not there): such a version is named, with what npm misses,
// and not tested. `npm run test:versions` writes the answer under its tables; `node test/realN8n/registry.mjs`
// prints it alone (exit 1 when a newer 2.x installs and is not in versions.mjs).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { HOST_OVERRIDES, NEWEST } from './versions.mjs';

const parse = (version) => version.split('.').map(Number);
const newer = (a, b) => {
	const [x, y] = [parse(a), parse(b)];
	for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] > y[i];
	return false;
};

/** The stable 2.x versions in `versions` newer than `than`, newest first. */
export function newer2x(versions, than) {
	return versions
		.filter((v) => /^2\.\d+\.\d+$/.test(v) && newer(v, than))
		.sort((a, b) => (newer(a, b) ? -1 : 1));
}

/** The package@version npm could not find, from an `npm install` that failed (ETARGET or E404), else undefined. */
export function missingPackage(output) {
	return (
		/No matching version found for (\S+?)\.?$/m.exec(output)?.[1] ??
		/'(\S+@\S+)' could not be found/.exec(output)?.[1] ??
		/404 Not Found - GET \S+\/(@?[^/\s]+(?:%2[fF][^/\s]+)?) - Not found/
			.exec(output)?.[1]
			?.replace(/%2[fF]/, '/')
	);
}

function npm(args, cwd) {
	const result = spawnSync('npm', args, { cwd, encoding: 'utf8', timeout: 600_000 });
	return { code: result.status, output: `${result.stdout ?? ''}${result.stderr ?? ''}` };
}

/**
 * Whether n8n `version` installs from the registry: npm resolves its whole tree (`--package-lock-only`, with the
 * host project's overrides), nothing is downloaded. `{ installs, missing }`, `missing` the first package npm lacks.
 */
export function installs(version) {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stora-n8n-registry-'));
	try {
		const manifest = {
			name: 'n8n-host',
			private: true,
			overrides: HOST_OVERRIDES,
			dependencies: { n8n: version },
		};
		fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest));
		const { code, output } = npm(
			['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund'],
			dir,
		);
		if (code === 0) return { installs: true };
		return {
			installs: false,
			missing: missingPackage(output),
			error: code === null ? 'npm timed out' : output.trim().split('\n')[0],
		};
	} finally {
		fs.rmSync(dir, { recursive: true, force: true });
	}
}

/**
 * The registry's n8n against the suites' newest: `latest` (its dist-tag), and every stable 2.x newer than NEWEST
 * with whether it installs. `{ error }` when the registry does not answer.
 */
export function checkRegistry({ newest = NEWEST.n8n } = {}) {
	const view = npm(['view', 'n8n', 'versions', 'dist-tags', '--json'], os.tmpdir());
	if (view.code !== 0)
		return { newest, error: view.output.trim().split('\n')[0] || `npm view exit ${view.code}` };
	const { versions, 'dist-tags': tags } = JSON.parse(view.output);
	return {
		newest,
		latest: tags?.latest,
		newer: newer2x(versions, newest).map((n8n) => ({ n8n, ...installs(n8n) })),
	};
}

/** A newer 2.x that installs and is not tested: what `npm run test:versions` fails on. */
export const untested = (check) => (check.newer ?? []).filter((v) => v.installs);

/** The check in one paragraph, for the versions tables. */
export function registryLine(check) {
	const head = 'Newest n8n 2.x in the registry (`npm view n8n`)';
	if (check.error) return `${head}: not known, the registry did not answer (${check.error}).`;
	if (!check.newer.length) return `${head}: ${check.newest}, the newest tested here.`;
	const each = check.newer.map((v) =>
		v.installs
			? `${v.n8n} installs and is **not tested**: add it to test/realN8n/versions.mjs`
			: `${v.n8n} does not install (${v.missing ? `its dependencies name ${v.missing}, which the registry does not have` : v.error})`,
	);
	const tail = untested(check).length
		? ''
		: ` ${check.newest}, the newest 2.x that installs, is the newest tested.`;
	return `${head}: ${each.join('; ')}.${tail}`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	const check = checkRegistry();
	console.log(registryLine(check));
	process.exit(check.error || untested(check).length ? 1 : 0);
}
