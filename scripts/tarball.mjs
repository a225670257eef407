// `npm run tarball`: the package as a file to install into a self-hosted n8n by hand, without running the suites.
// Installs the dev dependencies when missing, builds, packs, and prints the path and the command that installs it.
// Runs on the machine's Node (20 or newer): building needs neither Node 24 nor n8n.
//
//   npm run tarball [-- --dest <folder>]     (default: the repository's root folder, where *.tgz is ignored by git)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { ensureDevDependencies, REPO, say, seconds } from './toolchain.mjs';

/** The command the README gives for installing `tarball` into n8n's user folder (`~/.n8n` unless N8N_USER_FOLDER). */
export const installCommand = (tarball) =>
	`npm install --prefix ~/.n8n/nodes --omit=dev --omit=peer ${JSON.stringify(tarball)}`;

function npm(args, { quiet = false } = {}) {
	const result = spawnSync('npm', args, {
		cwd: REPO,
		encoding: 'utf8',
		stdio: quiet ? ['ignore', 'pipe', 'inherit'] : 'inherit',
	});
	if (result.status !== 0)
		throw new Error(`npm ${args.join(' ')} failed (exit ${result.status ?? result.signal})`);
	return result.stdout ?? '';
}

/** Builds and packs into `dest`; returns the tarball's absolute path. */
export async function makeTarball(dest = REPO) {
	const started = Date.now();
	await ensureDevDependencies();
	say('building (npm run build)');
	npm(['run', 'build']);
	fs.mkdirSync(dest, { recursive: true });
	say('packing (npm pack)');
	const [{ filename }] = JSON.parse(
		npm(['pack', '--json', '--pack-destination', dest], { quiet: true }),
	);
	const tarball = path.resolve(dest, filename);
	say(`${path.basename(tarball)} made in ${seconds(Date.now() - started)}`);
	return tarball;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
	const { values: args } = parseArgs({ options: { dest: { type: 'string' } } });
	makeTarball(args.dest ? path.resolve(args.dest) : REPO).then(
		(tarball) => {
			console.log(`
${tarball}

Install it into a self-hosted n8n, then restart n8n:

  ${installCommand(tarball)}

~/.n8n is n8n's folder; where N8N_USER_FOLDER is set, n8n's folder is <N8N_USER_FOLDER>/.n8n: install into
<N8N_USER_FOLDER>/.n8n/nodes instead. n8n in Docker: README.md, "Installation".`);
		},
		(error) => {
			console.error(`[setup] ${error.message}`);
			process.exit(1);
		},
	);
}
