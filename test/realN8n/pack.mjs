// This package as a user gets it: built and packed with npm, then installed from the tarball into an n8n user folder
// the way n8n installs community packages.
import fs from 'node:fs';
import path from 'node:path';

import { REPO } from '../../scripts/toolchain.mjs';
import { PACKAGE_NAME, run } from './basics.mjs';

/** `npm run build` then `npm pack` of this repo (or of another package's `folder`); returns the tarball path (in `dest`). */
export function packPackage(dest, { build = true, folder = REPO } = {}) {
	const timings = {};
	let started = Date.now();
	if (build) {
		run('npm', ['run', 'build'], { cwd: REPO });
		timings.build = Date.now() - started;
	}
	started = Date.now();
	fs.mkdirSync(dest, { recursive: true });
	const out = run('npm', ['pack', '--json', '--pack-destination', dest], {
		cwd: folder,
		quiet: true,
		stdoutOnly: true,
	});
	const [{ filename, files }] = JSON.parse(out);

	timings.pack = Date.now() - started;
	return { tarball: path.join(dest, filename), timings, files: files.map((f) => f.path) };
}

/**
 * Installs the tarball the way the README tells a self-hosted user to (and as n8n's community-package installer
 * does): `npm install` of the package into <user folder>/.n8n/nodes, runtime dependencies only. A file missing from
 * the tarball, or a runtime dependency it would need, then fails when n8n loads the package.
 */
export function installPackage(userFolder, tarball, name = PACKAGE_NAME) {
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	fs.mkdirSync(nodesDir, { recursive: true });
	// --prefix: without it npm would install into the nearest folder above that has a package.json.
	run(
		'npm',
		[
			'install',
			'--prefix',
			nodesDir,
			'--omit=dev',
			'--omit=peer',
			'--ignore-scripts',
			'--no-audit',
			'--no-fund',
			tarball,
		],
		{ quiet: true },
	);
	return JSON.parse(
		fs.readFileSync(path.join(nodesDir, 'node_modules', name, 'package.json'), 'utf8'),
	);
}
