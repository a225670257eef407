/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test, never published */
/**
 * The road to a user's n8n. The GitHub workflows parse (a real YAML parser) and pass a workflow schema
 * validator; CI runs on pushes and pull requests, publishing on a version tag with `id-token: write` through the
 * `release` script; every npm script they call exists. `npm run release` refuses, naming each field, while the
 * package's metadata is not real. The tarball holds what n8n loads (nodes, credentials, icons, codex, output schemas).
 */
import { spawn, spawnSync } from 'node:child_process';
import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import { type AddressInfo, createServer } from 'node:net';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { validateWorkflow } from '@action-validator/core';
import { parse } from 'yaml';

const ROOT = join(__dirname, '..', '..');
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
	scripts: Record<string, string>;
	n8n: { nodes: string[]; credentials: string[] };
};

interface Workflow {
	on: Record<string, unknown>;
	permissions?: Record<string, string>;
	jobs: Record<string, { steps: Array<{ run?: string; uses?: string }> }>;
}

const workflowText = (name: string) => readFileSync(join(ROOT, '.github/workflows', name), 'utf8');
const workflow = (name: string) => parse(workflowText(name)) as Workflow;
const runs = (flow: Workflow) =>
	Object.values(flow.jobs).flatMap((job) =>
		job.steps.map((step) => step.run).filter((run): run is string => !!run),
	);

/** What `npm pack --json` printed, as a list: npm 10 and 11 print one, npm 12 an object by package name. */
function packedList(json: string) {
	type Packed = { filename: string; files: Array<{ path: string }> };
	const parsed = JSON.parse(json) as Packed[] | Record<string, Packed>;
	return Array.isArray(parsed) ? parsed : Object.values(parsed);
}

/** A local port nothing listens on (taken free, then closed): npm pointed there reaches no registry. */
function closedPort() {
	return new Promise<number>((resolve) => {
		const server = createServer().listen(0, '127.0.0.1', () => {
			const { port } = server.address() as AddressInfo;
			server.close(() => resolve(port));
		});
	});
}

/** scripts/release.mjs as release() runs it, without blocking this process (a server here answers it). */
function releaseAsync(args: string[], env: Record<string, string> = {}) {
	return new Promise<{ status: number | null; output: string }>((resolve, reject) => {
		const child = spawn(process.execPath, [join(ROOT, 'scripts/release.mjs'), ...args], {
			env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
		});
		let output = '';
		child.stdout.on('data', (chunk) => (output += chunk));
		child.stderr.on('data', (chunk) => (output += chunk));
		child.on('error', reject);
		child.on('close', (status) => resolve({ status, output }));
	});
}

/** A loopback HTTP server answering each request with `answer`; the requests it got, and its URL. */
async function fakeService(
	answer: (request: IncomingMessage) => { status: number; body: unknown },
) {
	const requests: Array<{ method?: string; url?: string; authorization?: string }> = [];
	const server: Server = createHttpServer((request, response) => {
		requests.push({
			method: request.method,
			url: request.url,
			authorization: request.headers.authorization,
		});
		const { status, body } = answer(request);
		response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
		requests,
		close: () => new Promise((resolve) => server.close(resolve)),
	};
}

/** Runs scripts/release.mjs with `args` in a clean environment (`env` added); its exit code and output. */
function release(args: string[], env: Record<string, string> = {}) {
	const result = spawnSync(process.execPath, [join(ROOT, 'scripts/release.mjs'), ...args], {
		encoding: 'utf8',
		env: { PATH: process.env.PATH ?? '', ...env },
	});
	return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe('the release path', () => {
	it.each(['ci.yml', 'publish.yml'])('%s is a valid GitHub Actions workflow', (name) => {
		expect(validateWorkflow(workflowText(name)).errors).toEqual([]);
	});

	it('CI runs on pushes and pull requests, with read-only permissions, and the checks npm test runs', () => {
		const ci = workflow('ci.yml');
		expect(Object.keys(ci.on).sort()).toEqual(['pull_request', 'push']);
		expect(ci.permissions).toEqual({ contents: 'read' });
		expect(runs(ci)).toEqual(
			expect.arrayContaining([
				'npm ci',
				'npm run build',
				'npm run lint',
				'npm run typecheck',
				'npm run scan',
				'npm run test:unit',
			]),
		);
	});

	it('publishing runs on a version tag, with the id-token that provenance needs, through npm run release', () => {
		const publish = workflow('publish.yml');
		expect(Object.keys(publish.on)).toEqual(['push']);
		expect((publish.on.push as { tags: string[] }).tags).toEqual(['v*.*.*']);
		expect(publish.permissions).toEqual({ contents: 'read', 'id-token': 'write' });
		expect(runs(publish)).toContain('npm run release');
	});

	it('calls only npm scripts that exist', () => {
		const called = ['ci.yml', 'publish.yml']
			.flatMap((name) => runs(workflow(name)))
			.flatMap((run) => [...run.matchAll(/npm run ([\w:-]+)/g)].map((match) => match[1]));
		expect(called.length).toBeGreaterThan(5);
		expect(called.filter((script) => !(script in manifest.scripts))).toEqual([]);
	});

	/** A scratch package folder: `manifest` as package.json, with the lint config and changelog given; removed after `body`. */
	function scratch<T>(files: Record<string, string>, body: (dir: string) => T): T {
		const dir = mkdtempSync(join(tmpdir(), 'stora-release-'));
		try {
			for (const [name, text] of Object.entries(files)) {
				mkdirSync(dirname(join(dir, name)), { recursive: true });
				writeFileSync(join(dir, name), text);
			}
			return body(dir);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	}

	const DEFAULT_ESLINT = readFileSync(
		join(
			ROOT,
			'node_modules/@n8n/node-cli/dist/template/templates/shared/default/eslint.config.mjs',
		),
		'utf8',
	);
	/** What the publisher fills in (`npm run release -- --prepare` writes the same), on top of the live manifest. */
	const filled = {
		...manifest,
		version: '0.1.0',
		author: { name: 'A Publisher', email: 'publisher@example.com' },
		homepage: 'https://github.com/publisher/n8n-nodes-stora#readme',
		repository: { type: 'git', url: 'git+https://github.com/publisher/n8n-nodes-stora.git' },
		n8n: { ...manifest.n8n, strict: true },
	};
	const ready = {
		'package.json': JSON.stringify(filled),
		'eslint.config.mjs': DEFAULT_ESLINT,
		'CHANGELOG.md': '# Changelog\n\n## 0.1.0\n\n- First.\n',
	};
	const actions = {
		GITHUB_REPOSITORY: 'publisher/n8n-nodes-stora',
		GITHUB_REF_TYPE: 'tag',
		GITHUB_REF_NAME: 'v0.1.0',
	};

	it('npm run release -- --check refuses, naming each fix, until the metadata, strict mode, lint config and changelog are right', () => {
		const unready = {
			'package.json': JSON.stringify({
				...manifest,
				version: '0.1.0',
				author: undefined,
				homepage: undefined,
				repository: undefined,
				n8n: { ...manifest.n8n, strict: false },
			}),
			'eslint.config.mjs': `${DEFAULT_ESLINT}\n// changed\nexport const more = 1;\n`,
			'CHANGELOG.md': '# Changelog\n\n## 0.1.0 (unreleased)\n',
		};
		scratch(unready, (dir) => {
			const { status, output } = release(['--check', '--package', join(dir, 'package.json')]);
			expect(status).toBe(1);
			for (const field of [
				'"author"',
				'"homepage"',
				'"repository.url"',
				'"n8n.strict"',
				"eslint.config.mjs: n8n's default configuration",
				'CHANGELOG.md: "## 0.1.0 (unreleased)"',
			])
				expect(output).toContain(field);
			expect(output).toContain(
				'npm run release -- --prepare --author "Name <e-mail>" --repository <owner>/<repository>',
			);
		});
		scratch({ ...ready, 'CHANGELOG.md': '# Changelog\n\n## 0.0.9\n' }, (dir) => {
			expect(
				release(['--check', '--dry-run', '--package', join(dir, 'package.json')]).output,
			).toContain('CHANGELOG.md: a section "## 0.1.0"');
		});
		scratch(
			{ ...ready, 'package.json': JSON.stringify({ ...filled, publishConfig: undefined }) },
			(dir) => {
				expect(
					release(['--check', '--dry-run', '--package', join(dir, 'package.json')]).output,
				).toContain('"publishConfig.provenance": true');
			},
		);
	});

	it('npm run release -- --check accepts the filled manifest, refuses a placeholder e-mail outside the rehearsal, a tag or repository that does not match', () => {
		scratch(ready, (dir) => {
			const file = join(dir, 'package.json');
			expect(release(['--check', '--dry-run', '--package', file], actions)).toMatchObject({
				status: 0,
			});
			const placeholder = release(['--check', '--package', file], actions);
			expect(placeholder.status).toBe(1);
			expect(placeholder.output).toContain('publisher@example.com is a placeholder address');
			const wrongTag = release(['--check', '--dry-run', '--package', file], {
				...actions,
				GITHUB_REF_NAME: 'v0.2.0',
			});
			expect(wrongTag.status).toBe(1);
			expect(wrongTag.output).toContain('the tag v0.2.0 is not v0.1.0');
			const elsewhere = release(['--check', '--dry-run', '--package', file], {
				...actions,
				GITHUB_REPOSITORY: 'someone/fork',
			});
			expect(elsewhere.output).toContain('but this runs in someone/fork');
			// npm's provenance check compares case too (E422 at upload): so does this.
			const cased = release(['--check', '--dry-run', '--package', file], {
				...actions,
				GITHUB_REPOSITORY: 'Publisher/N8N-Nodes-Stora',
			});
			expect(cased.status).toBe(1);
			expect(cased.output).toContain(
				'names publisher/n8n-nodes-stora, but this runs in Publisher/N8N-Nodes-Stora (npm compares them exactly, case included',
			);
		});
	});

	it('npm run release -- --check says, next to "ready", what it cannot see and where on npmjs.com to confirm it', () => {
		scratch(ready, (dir) => {
			const { status, output } = release(
				['--check', '--dry-run', '--package', join(dir, 'package.json')],
				actions,
			);
			expect(status).toBe(0);
			expect(output).toContain('is ready to publish');
			expect(output).toContain(
				'Not seen from here: whether n8n-nodes-stora is on npm with a trusted publisher for this workflow',
			);
			expect(output).toContain(
				'Trusted Publisher: GitHub Actions, publisher/n8n-nodes-stora (as GitHub spells it, case included), workflow filename publish.yml, no environment',
			);
		});
	});

	describe('the publish run asks npm for its trusted-publishing token before anything else', () => {
		// The publisher's own address (a reserved .localhost name): the publish run refuses example.com.
		const published = {
			...ready,
			'package.json': JSON.stringify({
				...filled,
				author: { name: 'A Publisher', email: 'publisher@publisher.localhost' },
			}),
		};
		const inWorkflow = {
			...actions,
			GITHUB_ACTIONS: 'true',
			GITHUB_WORKFLOW_REF:
				'publisher/n8n-nodes-stora/.github/workflows/publish.yml@refs/tags/v0.1.0',
		};

		it('without the id-token permission it stops, naming it, and builds nothing', async () => {
			const registry = await fakeService(() => ({ status: 500, body: {} }));
			try {
				const dir = mkdtempSync(join(tmpdir(), 'stora-release-'));
				for (const [name, text] of Object.entries(published)) writeFileSync(join(dir, name), text);
				const { status, output } = await releaseAsync(['--package', join(dir, 'package.json')], {
					...inWorkflow,
					npm_config_registry: registry.url,
				});
				rmSync(dir, { recursive: true, force: true });
				expect(status).toBe(1);
				expect(output).toContain(
					"::error title=npm trusted publishing::npm's trusted publishing for n8n-nodes-stora failed: this job has no GitHub id-token",
				);
				expect(output).toContain('needs "permissions: id-token: write"');
				expect(output).not.toContain('npm run build');
				expect(registry.requests).toEqual([]);
			} finally {
				await registry.close();
			}
		});

		it("when npm refuses the exchange it stops with npm's answer and the fix, before building", async () => {
			const github = await fakeService(() => ({
				status: 200,
				body: { value: 'id-token-from-github' },
			}));
			const registry = await fakeService(() => ({
				status: 404,
				body: { message: 'OIDC token exchange error - package not found' },
			}));
			try {
				const dir = mkdtempSync(join(tmpdir(), 'stora-release-'));
				for (const [name, text] of Object.entries(published)) writeFileSync(join(dir, name), text);
				const oidc = {
					ACTIONS_ID_TOKEN_REQUEST_URL: `${github.url}token?api-version=2.0`,
					ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'runner-request-token',
				};
				const { status, output } = await releaseAsync(['--package', join(dir, 'package.json')], {
					...inWorkflow,
					...oidc,
					npm_config_registry: registry.url,
				});
				rmSync(dir, { recursive: true, force: true });
				expect(status).toBe(1);
				expect(output).toContain(
					'npm answered the token exchange with HTTP 404 ("OIDC token exchange error - package not found")',
				);
				expect(output).toContain(
					'Either n8n-nodes-stora is not on npm yet (publish the bootstrap first',
				);
				expect(output).toContain(
					'must name publisher/n8n-nodes-stora exactly (case included), workflow filename publish.yml and no environment',
				);
				expect(output).not.toContain('npm run build');
				// As npm asks: the id-token for npm's audience (this registry's host), then the exchange with it.
				expect(github.requests).toEqual([
					{
						method: 'GET',
						url: '/token?api-version=2.0&audience=npm%3A127.0.0.1',
						authorization: 'Bearer runner-request-token',
					},
				]);
				expect(registry.requests).toEqual([
					{
						method: 'POST',
						url: '/-/npm/v1/oidc/token/exchange/package/n8n-nodes-stora',
						authorization: 'Bearer id-token-from-github',
					},
				]);
			} finally {
				await github.close();
				await registry.close();
			}
		});
	});

	it("npm run release -- --prepare writes what the checks ask for: the publisher fields, strict mode, n8n's default lint config", () => {
		scratch(
			{
				'package.json': JSON.stringify(manifest),
				'eslint.config.mjs': '// ours\n',
				'CHANGELOG.md': `# Changelog\n\n## ${(manifest as { version?: string }).version}\n`,
			},
			(dir) => {
				const file = join(dir, 'package.json');
				expect(
					release([
						'--prepare',
						'--author',
						'A Publisher <publisher@example.com>',
						'--repository',
						'publisher/n8n-nodes-stora',
						'--package',
						file,
					]),
				).toMatchObject({ status: 0 });
				const written = JSON.parse(readFileSync(file, 'utf8'));
				expect(written).toMatchObject({
					author: { name: 'A Publisher', email: 'publisher@example.com' },
					homepage: 'https://github.com/publisher/n8n-nodes-stora#readme',
					n8n: { strict: true },
				});
				expect(written.repository.url).toBe('git+https://github.com/publisher/n8n-nodes-stora.git');
				expect(readFileSync(join(dir, 'eslint.config.mjs'), 'utf8')).toBe(DEFAULT_ESLINT);
				expect(release(['--check', '--dry-run', '--package', file], actions)).toMatchObject({
					status: 0,
				});
			},
		);
		// The copy release.mjs writes when node_modules is not there yet is n8n's template.
		const copy = spawnSync(
			process.execPath,
			[
				'--input-type=module',
				'-e',
				`import { DEFAULT_ESLINT_CONFIG } from ${JSON.stringify(join(ROOT, 'scripts/release.mjs'))}; process.stdout.write(DEFAULT_ESLINT_CONFIG);`,
			],
			{ encoding: 'utf8' },
		);
		expect(copy.stdout).toBe(DEFAULT_ESLINT);
	});

	it('npm run release -- --bootstrap publishes this package as built, numbered 0.0.0: nodes, no guard, no provenance', async () => {
		// npm's dry run still asks the registry about the package: a port nothing listens on, asked once.
		const offline = {
			HOME: process.env.HOME ?? '',
			npm_config_registry: `http://127.0.0.1:${await closedPort()}/`,
			npm_config_fetch_retries: '0',
		};
		scratch(
			{ ...ready, 'package.json': JSON.stringify({ ...filled, repository: undefined }) },
			(dir) => {
				expect(
					release(['--bootstrap', '--dry-run', '--package', join(dir, 'package.json')], offline)
						.output,
				).toContain('--bootstrap needs package.json "repository.url" first');
			},
		);
		scratch(ready, (dir) => {
			const { status, output } = release(
				['--bootstrap', '--dry-run', '--built', '--package', join(dir, 'package.json')],
				offline,
			);
			expect(status).toBe(1);
			expect(output).toContain('the package lacks what n8n loads');
		});
		const built = Object.fromEntries(
			[...manifest.n8n.nodes, ...manifest.n8n.credentials].map((file) => [
				file,
				'module.exports = {};\n',
			]),
		);
		scratch({ ...ready, ...built }, (dir) => {
			const { status, output } = release(
				['--bootstrap', '--dry-run', '--built', '--package', join(dir, 'package.json')],
				offline,
			);
			expect(output).not.toContain('publish guard');
			expect(status).toBe(0);
			expect(output).toMatch(/version:\s+0\.0\.0/);
			for (const file of [...manifest.n8n.nodes, ...manifest.n8n.credentials])
				expect(output).toContain(file);
			expect(output).toContain('n8n-nodes-stora@0.0.0');
		});
	});

	it('npm run release outside the publish workflow refuses, naming it', () => {
		scratch(ready, (dir) => {
			const { status, output } = release(['--package', join(dir, 'package.json')], actions);
			expect(status).toBe(1);
			expect(output).toContain('publishing runs in .github/workflows/publish.yml only');
		});
	});

	it('the tarball holds every node and credential n8n loads, with icons, codex files and output schemas', () => {
		const packed = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
			cwd: ROOT,
			encoding: 'utf8',
		});
		expect(packed.status).toBe(0);
		const files = packedList(packed.stdout)[0].files.map((entry) => entry.path);
		for (const entry of [...manifest.n8n.nodes, ...manifest.n8n.credentials])
			expect(files).toContain(entry);
		for (const codex of ['Stora', 'StoraTrigger', 'StoraPollTrigger'])
			expect(files).toContain(`dist/nodes/${codex}/${codex}.node.json`);
		expect(files).toEqual(
			expect.arrayContaining(['dist/icons/stora.svg', 'dist/icons/stora.dark.svg']),
		);
		expect(
			files.filter((file) => /^dist\/nodes\/Stora\/__schema__\/v1\.0\.0\/.+\.json$/.test(file))
				.length,
		).toBeGreaterThanOrEqual(85);
		expect(files).toContain('CHANGELOG.md');
		expect(
			files.filter(
				(file) =>
					!/^(dist\/|package\.json$|README\.md$|LICENSE\.md$|CHANGELOG\.md$|index\.js$)/.test(file),
			),
		).toEqual([]);
		// n8n loads none of these: no source maps, no type declarations.
		expect(files.filter((file) => /\.(js\.map|d\.ts)$/.test(file))).toEqual([]);
	});

	describe("a hand-run npm publish, with the project's .npmrc (scripts off)", () => {
		// npm asks the registry about the package even in a dry run: a port nothing listens on, asked once.
		let registry = '';
		beforeAll(async () => {
			registry = `http://127.0.0.1:${await closedPort()}/`;
		});
		/** npm in `dir` with nothing of a CI run or of an outer npm in its environment, and no registry to reach. */
		function npm(dir: string, args: string[], extra: Record<string, string> = {}) {
			const env = Object.fromEntries(
				Object.entries(process.env).filter(
					([name]) => !/^(npm_|GITHUB_|STORA_RELEASE)/i.test(name),
				),
			);
			const offline = { npm_config_registry: registry, npm_config_fetch_retries: '0' };
			const result = spawnSync('npm', args, {
				cwd: dir,
				encoding: 'utf8',
				env: { ...env, ...offline, ...extra },
			});
			return {
				status: result.status,
				stdout: result.stdout,
				output: `${result.stdout}${result.stderr}`,
			};
		}
		/** The package as a scratch copy: package.json, .npmrc, the guard; with `built`, a dist/ holding what n8n loads. */
		const copy = (built: boolean) => ({
			'package.json': JSON.stringify(manifest),
			'.npmrc': readFileSync(join(ROOT, '.npmrc'), 'utf8'),
			'scripts/publishGuard.mjs': readFileSync(join(ROOT, 'scripts/publishGuard.mjs'), 'utf8'),
			...(built
				? Object.fromEntries(
						[...manifest.n8n.nodes, ...manifest.n8n.credentials].map((file) => [
							file,
							'module.exports = {};\n',
						]),
					)
				: {}),
		});

		it('is refused, naming the publish workflow, with or without dist/; without dist/ also for that', () => {
			scratch(copy(false), (dir) => {
				const { status, output } = npm(dir, ['publish', '--dry-run']);
				expect(status).not.toBe(0);
				expect(output).toContain('is published by .github/workflows/publish.yml only');
				expect(output).toContain('dist/ lacks what n8n loads');
				// Even in the release run's own rehearsal, a package without dist/ is not packed.
				expect(npm(dir, ['publish', '--dry-run'], { STORA_RELEASE: 'dry-run' }).output).toContain(
					'dist/ lacks what n8n loads',
				);
			});
			scratch(copy(true), (dir) => {
				const { status, output } = npm(dir, ['publish', '--dry-run']);
				expect(status).not.toBe(0);
				expect(output).toContain('is published by .github/workflows/publish.yml only');
				expect(output).not.toContain('dist/ lacks');
			});
		});

		it('is refused when it poses as the publish run but asks for no provenance (--provenance=false looks like no flag)', () => {
			const posing = {
				STORA_RELEASE: 'publish',
				GITHUB_ACTIONS: 'true',
				GITHUB_WORKFLOW_REF:
					'publisher/n8n-nodes-stora/.github/workflows/publish.yml@refs/tags/v0.1.0',
			};
			scratch(copy(true), (dir) => {
				for (const flags of [['--provenance=false'], []]) {
					const { status, output } = npm(dir, ['publish', '--dry-run', ...flags], posing);
					expect(status).not.toBe(0);
					expect(output).toContain('is published by .github/workflows/publish.yml only');
				}
			});
		});

		it("passes in the release run's rehearsal (npm run release -- --dry-run), with dist/ in the tarball", () => {
			scratch(copy(true), (dir) => {
				const { status, output } = npm(dir, ['publish', '--dry-run'], { STORA_RELEASE: 'dry-run' });
				expect(output).not.toContain('refused');
				expect(status).toBe(0);
				expect(output).toContain(manifest.n8n.nodes[0]);
			});
		});

		it('of a tarball packed without the guard is refused by npm: publishConfig asks for provenance, which only CI makes', () => {
			scratch(copy(false), (dir) => {
				const packed = npm(dir, ['pack', '--json']);
				expect(packed.status).toBe(0);
				const tarball = packedList(packed.stdout)[0].filename;
				// A token for that unreachable registry, so npm gets as far as it would for a logged-in maintainer.
				const { status, output } = npm(dir, [
					'publish',
					`./${tarball}`,
					`--${registry.replace(/^http:/, '')}:_authToken=placeholder`,
				]);
				expect(status).not.toBe(0);
				expect(output).toMatch(/provenance generation not supported/i);
			});
		});
	});
});
