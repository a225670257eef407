// `npm run release -- --rehearse`: the first publish of CONTRIBUTING.md ("The first publish"), run end to end against
// a Verdaccio registry started here on a free loopback port (a dev dependency; it reaches no other registry):
//   1. the bootstrap (`--bootstrap`'s own code) publishes this package numbered 0.0.0; installed from "latest" the way
//      n8n's Community Nodes installer installs, n8n's loader finds every node and credential in it;
//   2. the release's `npm publish` (the prepack guard allows it for this loopback registry only; no provenance, which
//      only CI makes) publishes the version in package.json; "latest" is that version, installed and loaded the same;
//   3. `npm unpublish <name>@0.0.0` leaves the package page with that version alone.
// The checks, lint and scanner of the publish run are `npm run release -- --dry-run`'s part. Exits 1 naming the step.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { ensureN8n } from '../test/realN8n/install.mjs';
import { freePort, HOST_DIR, n8nNode } from '../test/realN8n/basics.mjs';
import { until } from '../test/realN8n/wait.mjs';
import { BOOTSTRAP_VERSION, bootstrap } from './release.mjs';
import { ensureDevDependencies, REPO, seconds } from './toolchain.mjs';

const say = (...args) => console.log('[rehearse]', ...args);

/** What n8n's loader finds at start in <user folder>/.n8n/nodes/node_modules (n8n-core of the installed n8n). */
const LOAD = `
const { scanDirectoryForPackages } = require('n8n-core');
(async () => {
	const found = [];
	for (const loader of await scanDirectoryForPackages(process.env.NODES)) {
		await loader.loadAll();
		found.push({ package: loader.packageName, version: loader.packageJson.version, nodes: Object.keys(loader.known.nodes).sort(), credentials: Object.keys(loader.known.credentials).sort() });
	}
	console.log(JSON.stringify(found));
})();
`;

function npm(args, { cwd = REPO, env }) {
	const result = spawnSync('npm', args, { cwd, env, encoding: 'utf8' });
	if (result.status !== 0)
		throw new Error(
			`npm ${args.join(' ')} failed (exit ${result.status ?? result.signal}):\n${`${result.stdout}${result.stderr}`.split('\n').slice(-30).join('\n')}`,
		);
	return result.stdout;
}

/** Verdaccio on 127.0.0.1:<free port>, its storage and users in `dir`; resolves once it answers its ping. */
async function startVerdaccio(dir) {
	const port = await freePort();
	const config = path.join(dir, 'config.yaml');
	fs.writeFileSync(
		config,
		[
			`storage: ${JSON.stringify(path.join(dir, 'storage'))}`,
			`auth: { htpasswd: { file: ${JSON.stringify(path.join(dir, 'htpasswd'))} } }`,
			'uplinks: {}',
			"packages: { '**': { access: $all, publish: $authenticated, unpublish: $authenticated } }",
			// JWT tokens: the default ones make Verdaccio verify the password's bcrypt hash on every request.
			"security: { api: { jwt: { sign: { expiresIn: '1h' } } } }",
			'log: { type: stdout, format: pretty, level: error }',
			'',
		].join('\n'),
	);
	const url = `http://127.0.0.1:${port}/`;
	const child = spawn(
		n8nNode(),
		[
			path.join(REPO, 'node_modules/verdaccio/bin/verdaccio'),
			'--config',
			config,
			'--listen',
			`127.0.0.1:${port}`,
		],
		{ stdio: ['ignore', 'pipe', 'pipe'] },
	);
	let output = '';
	child.stdout.on('data', (chunk) => (output += chunk));
	child.stderr.on('data', (chunk) => (output += chunk));
	const stop = () => {
		if (child.exitCode === null) process.kill(child.pid);
	};
	try {
		await until(
			async () =>
				child.exitCode === null &&
				(await fetch(`${url}-/ping`).then(
					(r) => r.ok,
					() => false,
				)),
			'Verdaccio answering',
			{ timeoutMs: 60_000 },
		);
	} catch (error) {
		stop();
		throw new Error(`${error.message}\n${output}`);
	}
	return { url, stop, output: () => output };
}

/** A user for the registry (Verdaccio adds it on first sign-up); its token in an npm user config of its own. */
async function signUp(registry, dir) {
	const name = 'rehearsal';
	const answer = await fetch(`${registry}-/user/org.couchdb.user:${name}`, {
		method: 'PUT',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ name, password: `${name}-${process.pid}` }),
	});
	const { token } = await answer.json();
	if (!token) throw new Error(`Verdaccio gave no token (HTTP ${answer.status})`);
	const userconfig = path.join(dir, 'npmrc');
	fs.writeFileSync(userconfig, `//${new URL(registry).host}/:_authToken=${token}\n`);
	return userconfig;
}

/**
 * `name@tag` into a new user folder as n8n's Community Nodes installer does it (n8n 2.41's
 * CommunityPackagesService.downloadPackage): `npm pack` from the registry, unpacked into <.n8n/nodes>/node_modules/<name>,
 * its package.json without dev, peer and optional dependencies, then `npm install` there; then what n8n's loader finds.
 */
function installLikeN8n(registry, name, tag, dir, env) {
	const downloads = path.join(fs.mkdtempSync(path.join(dir, 'user-')), '.n8n', 'nodes');
	const packageDir = path.join(downloads, 'node_modules', name);
	fs.mkdirSync(packageDir, { recursive: true });
	const tarball = npm(['pack', `${name}@${tag}`, '--quiet', `--registry=${registry}`], {
		cwd: downloads,
		env,
	}).trim();
	const untar = spawnSync('tar', ['-xzf', tarball, '-C', packageDir, '--strip-components=1'], {
		cwd: downloads,
		encoding: 'utf8',
	});
	if (untar.status !== 0) throw new Error(`tar -xzf ${tarball} failed: ${untar.stderr}`);
	fs.rmSync(path.join(downloads, tarball));
	const manifestFile = path.join(packageDir, 'package.json');
	const { devDependencies, peerDependencies, optionalDependencies, ...manifest } = JSON.parse(
		fs.readFileSync(manifestFile, 'utf8'),
	);
	fs.writeFileSync(manifestFile, JSON.stringify(manifest, null, 2));
	npm(
		[
			'install',
			'--audit=false',
			'--fund=false',
			'--bin-links=false',
			'--install-strategy=shallow',
			'--ignore-scripts=true',
			'--package-lock=false',
			`--registry=${registry}`,
		],
		{ cwd: packageDir, env },
	);
	const loaded = spawnSync(n8nNode(), ['-e', LOAD], {
		cwd: dir,
		encoding: 'utf8',
		env: {
			...env,
			NODE_PATH: path.join(HOST_DIR, 'node_modules'),
			NODES: path.join(downloads, 'node_modules'),
		},
	});
	if (loaded.status !== 0) throw new Error(`n8n's loader failed:\n${loaded.stderr}`);
	return { found: JSON.parse(loaded.stdout), files: fs.readdirSync(packageDir) };
}

/** Throws naming `what` when `actual` is not `expected` (compared as JSON). */
function expectSame(what, actual, expected) {
	if (JSON.stringify(actual) !== JSON.stringify(expected))
		throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
	say(`${what}: ${JSON.stringify(actual)}`);
}

/** Runs `body` as the step `name` (said with its time; named when it throws). */
async function step(name, body) {
	const started = Date.now();
	try {
		const value = await body();
		say(`${name}: ${seconds(Date.now() - started)}`);
		return value;
	} catch (error) {
		error.message = `${name}: ${error.message}`;
		throw error;
	}
}

export async function rehearse() {
	const started = Date.now();
	await ensureDevDependencies();
	await step('n8n (ensureN8n)', () => ensureN8n());
	const manifest = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8'));
	// What n8n must find in every version a user can install: three nodes, two credentials.
	const expected = (version) => [
		{
			package: manifest.name,
			version,
			nodes: ['stora', 'storaPollTrigger', 'storaTrigger'],
			credentials: ['storaApi', 'storaOAuth2Api'],
		},
	];
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stora-rehearse-'));
	const registry = await step('starting Verdaccio', () => startVerdaccio(dir));
	try {
		const env = {
			...process.env,
			npm_config_userconfig: await signUp(registry.url, dir),
			npm_config_fetch_retries: '0',
			npm_config_update_notifier: 'false',
		};
		for (const name of Object.keys(env))
			if (/^(GITHUB_|ACTIONS_|NODE_AUTH_TOKEN$)/.test(name)) delete env[name];
		say(`Verdaccio on ${registry.url}`);
		await step('npm run build', () => npm(['run', 'build'], { env }));
		await step(`the bootstrap, ${manifest.name}@${BOOTSTRAP_VERSION}`, () =>
			bootstrap(REPO, {
				built: true,
				quiet: true,
				npmArgs: [`--registry=${registry.url}`],
				env,
				log: say,
			}),
		);
		await step('installing "latest" as n8n does', () => {
			expectSame(
				'n8n loads "latest" after the bootstrap',
				installLikeN8n(registry.url, manifest.name, 'latest', dir, env).found,
				expected(BOOTSTRAP_VERSION),
			);
		});
		await step(`the release's npm publish, ${manifest.name}@${manifest.version}`, () =>
			npm(['publish', '--access', 'public', '--provenance=false', `--registry=${registry.url}`], {
				env: { ...env, STORA_RELEASE: 'rehearse' },
			}),
		);
		await step('installing "latest" as n8n does', () => {
			const release = installLikeN8n(registry.url, manifest.name, 'latest', dir, env);
			expectSame('n8n loads "latest" after the release', release.found, expected(manifest.version));
			if (!release.files.includes('CHANGELOG.md'))
				throw new Error(
					`the installed package has no CHANGELOG.md (package.json "files"): ${release.files.join(', ')}`,
				);
		});
		await step(`npm unpublish ${manifest.name}@${BOOTSTRAP_VERSION}`, () => {
			npm(['unpublish', `${manifest.name}@${BOOTSTRAP_VERSION}`, `--registry=${registry.url}`], {
				env,
			});
			const page = JSON.parse(
				npm(
					['view', manifest.name, 'versions', 'dist-tags', '--json', `--registry=${registry.url}`],
					{ env },
				),
			);
			expectSame('the package page: versions and dist-tags', page, {
				versions: [manifest.version],
				'dist-tags': { latest: manifest.version },
			});
		});
	} catch (error) {
		console.error(`[rehearse] failed at ${error.message}`);
		if (registry.output().trim())
			console.error(`[rehearse] Verdaccio said:\n${registry.output().trim()}`);
		process.exitCode = 1;
		return;
	} finally {
		registry.stop();
		fs.rmSync(dir, { recursive: true, force: true });
	}
	say(
		`passed in ${seconds(Date.now() - started)}: bootstrap, release, install as n8n does, unpublish of ${BOOTSTRAP_VERSION}`,
	);
}
