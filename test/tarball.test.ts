/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test under test/, never published */
/**
 * The README's manual install: `npm run tarball` builds and packs without the suites, and the tarball installed the
 * way the README says (`npm install --prefix <user folder>/nodes --omit=dev --omit=peer <tarball>`) is found by the
 * scan n8n makes of that folder at start (n8n-core's scanDirectoryForPackages, as n8n's community-packages module
 * calls it), with both nodes, the polling trigger and both credentials.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..');
/** What `npm run tarball` needs of the repository: the package's sources, its build and the scripts. */
const NEEDED = [
	'package.json',
	'package-lock.json',
	'.npmrc',
	'tsconfig.json',
	'gulpfile.js',
	'index.js',
	'LICENSE.md',
	'README.md',
	'CHANGELOG.md',
	'nodes',
	'credentials',
	'icons',
	'scripts',
];

/**
 * A registry on a local port that knows one package, n8n-workflow: npm resolves the peer dependency even with
 * --omit=peer (a user's npm asks the public registry), and installs nothing of it. Anything else is a 404, so no
 * test reaches a real registry.
 */
function peerOnlyRegistry(): Promise<{ url: string; close: () => void }> {
	const { version } = JSON.parse(
		readFileSync(join(ROOT, 'node_modules', 'n8n-workflow', 'package.json'), 'utf8'),
	) as { version: string };
	const server = createServer((request, response) => {
		if (request.url !== '/n8n-workflow') {
			response.writeHead(404).end('{}');
			return;
		}
		const tarball = `http://${request.headers.host}/n8n-workflow/-/n8n-workflow-${version}.tgz`;
		response.writeHead(200, { 'content-type': 'application/json' });
		response.end(
			JSON.stringify({
				name: 'n8n-workflow',
				'dist-tags': { latest: version },
				versions: { [version]: { name: 'n8n-workflow', version, dist: { tarball } } },
			}),
		);
	});
	return new Promise((resolve) => {
		server.listen(0, '127.0.0.1', () =>
			resolve({
				url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
				close: () => server.close(),
			}),
		);
	});
}

/** What n8n does at start with <user folder>/.n8n/nodes/node_modules: scan it for packages, then load each. */
const LOAD = `
const { scanDirectoryForPackages } = require('n8n-core');
(async () => {
	const found = [];
	for (const loader of await scanDirectoryForPackages(process.env.NODES)) {
		await loader.loadAll();
		found.push({ package: loader.packageName, nodes: Object.keys(loader.known.nodes).sort(), credentials: Object.keys(loader.known.credentials).sort() });
	}
	console.log(JSON.stringify(found));
})();
`;

/** A command run to its end without blocking this process (the registry above answers from it). */
function run(
	command: string,
	args: string[],
	options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<{ status: number | null; stdout: string; stderr: string }> {
	return new Promise((resolve, reject) => {
		const child = spawn(command, args, options);
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (chunk) => (stdout += chunk));
		child.stderr.on('data', (chunk) => (stderr += chunk));
		child.on('error', reject);
		child.on('close', (status) => resolve({ status, stdout, stderr }));
	});
}

describe('npm run tarball: the manual install of the README', () => {
	let scratch: string;
	let registry: { url: string; close: () => void } | undefined;

	beforeAll(() => {
		scratch = mkdtempSync(join(tmpdir(), 'stora-tarball-'));
	});
	afterAll(() => {
		registry?.close();
		rmSync(scratch, { recursive: true, force: true });
	});

	it('packs without the suites, and n8n finds both nodes and both credentials in the folder the README installs it into', async () => {
		// A copy of the repository, so this build does not replace dist/ under the other suites.
		const clone = join(scratch, 'clone');
		for (const name of NEEDED) cpSync(join(ROOT, name), join(clone, name), { recursive: true });
		symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'), 'dir');
		const { scripts, version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
			scripts: Record<string, string>;
			version: string;
		};
		expect(scripts.tarball).toBe('node scripts/tarball.mjs');
		// What the README tells a self-hosted user to run, which this test then runs.
		const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
		expect(readme).toContain('in a clone of this repository run `npm run tarball`');
		expect(readme).toContain(
			`\`npm install --prefix ~/.n8n/nodes --omit=dev --omit=peer <path of n8n-nodes-stora-${version}.tgz>\``,
		);
		expect(readme).toContain(
			'where `N8N_USER_FOLDER` is set, install into `<N8N_USER_FOLDER>/.n8n/nodes` instead',
		);

		registry = await peerOnlyRegistry();
		const offline = {
			...process.env,
			npm_config_registry: registry.url,
			npm_config_fetch_retries: '0',
		};
		const made = await run('npm', ['run', 'tarball', '--', '--dest', join(scratch, 'out')], {
			cwd: clone,
			env: offline,
		});
		expect({ status: made.status, stderr: made.stderr }).toEqual({ status: 0, stderr: '' });
		// The script's last lines: the tarball's path, then the command the README gives.
		const tarball = join(scratch, 'out', `n8n-nodes-stora-${version}.tgz`);
		expect(made.stdout).toContain(
			`npm install --prefix ~/.n8n/nodes --omit=dev --omit=peer "${tarball}"`,
		);
		expect(made.stdout).not.toMatch(/jest|lint|scanner/i);
		expect(made.stdout).toContain('install into\n<N8N_USER_FOLDER>/.n8n/nodes instead');

		// The folder the README names for a user who sets N8N_USER_FOLDER is where n8n looks (@n8n/config's n8n folder).
		const userFolder = join(scratch, 'user');
		const n8nFolder = await run(
			process.execPath,
			['-e', "console.log(require('@n8n/config/dist/utils/utils').getN8nFolder())"],
			{
				cwd: scratch,
				env: { ...process.env, NODE_PATH: join(ROOT, 'node_modules'), N8N_USER_FOLDER: userFolder },
			},
		);
		expect(n8nFolder.stdout.trim()).toBe(join(userFolder, '.n8n'));
		const nodes = join(userFolder, '.n8n', 'nodes');
		const install = await run(
			'npm',
			[
				'install',
				'--prefix',
				nodes,
				'--omit=dev',
				'--omit=peer',
				'--no-audit',
				'--no-fund',
				tarball,
			],
			{ cwd: scratch, env: offline },
		);
		expect({ status: install.status, stderr: install.stderr }).toEqual({ status: 0, stderr: '' });
		// No runtime dependency came with it; n8n-workflow is n8n's own. The changelog comes with it (npm's page shows it too).
		expect(existsSync(join(nodes, 'node_modules', 'n8n-workflow'))).toBe(false);
		expect(existsSync(join(nodes, 'node_modules', 'n8n-nodes-stora', 'CHANGELOG.md'))).toBe(true);

		// n8n puts its own node_modules on NODE_PATH before it loads packages, which is where n8n-workflow comes from.
		const loaded = await run(process.execPath, ['-e', LOAD], {
			cwd: scratch,
			env: {
				...process.env,
				NODE_PATH: join(ROOT, 'node_modules'),
				NODES: join(nodes, 'node_modules'),
			},
		});
		expect(loaded.status).toBe(0);
		expect(JSON.parse(loaded.stdout)).toEqual([
			{
				package: 'n8n-nodes-stora',
				nodes: ['stora', 'storaPollTrigger', 'storaTrigger'],
				credentials: ['storaApi', 'storaOAuth2Api'],
			},
		]);
	}, 300_000);
});
