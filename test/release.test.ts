/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test, never published */
/**
 * Issue 34: the road to a user's n8n. The GitHub workflows parse (a real YAML parser) and pass a workflow schema
 * validator; CI runs on pushes and pull requests, publishing on a version tag with `id-token: write` through the
 * `release` script; every npm script they call exists. `npm run release` refuses, naming each field, while the
 * package's metadata is not real. The tarball holds what n8n loads (nodes, credentials, icons, codex, output schemas).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { validateWorkflow } from '@action-validator/core';
import { parse } from 'yaml';

const ROOT = join(__dirname, '..');
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
const runs = (flow: Workflow) => Object.values(flow.jobs).flatMap((job) => job.steps.map((step) => step.run).filter((run): run is string => !!run));

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
		expect(runs(ci)).toEqual(expect.arrayContaining(['npm ci', 'npm run build', 'npm run lint', 'npm run typecheck', 'npm run scan', 'npm run test:unit']));
	});

	it('publishing runs on a version tag, with the id-token that provenance needs, through npm run release', () => {
		const publish = workflow('publish.yml');
		expect(Object.keys(publish.on)).toEqual(['push']);
		expect((publish.on.push as { tags: string[] }).tags).toEqual(['v*.*.*']);
		expect(publish.permissions).toEqual({ contents: 'read', 'id-token': 'write' });
		expect(runs(publish)).toContain('npm run release');
	});

	it('calls only npm scripts that exist', () => {
		const called = ['ci.yml', 'publish.yml'].flatMap((name) => runs(workflow(name))).flatMap((run) => [...run.matchAll(/npm run ([\w:-]+)/g)].map((match) => match[1]));
		expect(called.length).toBeGreaterThan(5);
		expect(called.filter((script) => !(script in manifest.scripts))).toEqual([]);
	});

	it('npm run release refuses, naming each missing field, until the metadata is real', () => {
		const { status, output } = release(['--check']);
		expect(status).toBe(1);
		for (const field of ['"author"', '"homepage"', '"repository.url"', '"n8n.strict"']) expect(output).toContain(field);
		expect(release([]).output).toContain('publishing runs in .github/workflows/publish.yml only');
	});

	it('npm run release accepts real metadata, and refuses a tag or repository that does not match', () => {
		const dir = mkdtempSync(join(tmpdir(), 'stora-release-'));
		try {
			const file = join(dir, 'package.json');
			const filled = {
				...manifest,
				version: '0.1.0',
				author: { name: 'A Publisher', email: 'publisher@example.org' },
				homepage: 'https://github.com/publisher/n8n-nodes-stora#readme',
				repository: { type: 'git', url: 'git+https://github.com/publisher/n8n-nodes-stora.git' },
				n8n: { ...manifest.n8n, strict: true },
			};
			writeFileSync(file, JSON.stringify(filled));
			const actions = { GITHUB_REPOSITORY: 'publisher/n8n-nodes-stora', GITHUB_REF_TYPE: 'tag', GITHUB_REF_NAME: 'v0.1.0' };
			expect(release(['--check', '--package', file], actions)).toMatchObject({ status: 0 });
			const wrongTag = release(['--check', '--package', file], { ...actions, GITHUB_REF_NAME: 'v0.2.0' });
			expect(wrongTag.status).toBe(1);
			expect(wrongTag.output).toContain('the tag v0.2.0 is not v0.1.0');
			const elsewhere = release(['--check', '--package', file], { ...actions, GITHUB_REPOSITORY: 'someone/fork' });
			expect(elsewhere.output).toContain('but this runs in someone/fork');
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});

	it('the tarball holds every node and credential n8n loads, with icons, codex files and output schemas', () => {
		const packed = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' });
		expect(packed.status).toBe(0);
		const files = (JSON.parse(packed.stdout) as Array<{ files: Array<{ path: string }> }>)[0].files.map((entry) => entry.path);
		for (const entry of [...manifest.n8n.nodes, ...manifest.n8n.credentials]) expect(files).toContain(entry);
		for (const codex of ['Stora', 'StoraTrigger', 'StoraPollTrigger']) expect(files).toContain(`dist/nodes/${codex}/${codex}.node.json`);
		expect(files).toEqual(expect.arrayContaining(['dist/icons/stora.svg', 'dist/icons/stora.dark.svg']));
		expect(files.filter((file) => /^dist\/nodes\/Stora\/__schema__\/v1\.0\.0\/.+\.json$/.test(file)).length).toBeGreaterThanOrEqual(85);
		expect(files.filter((file) => !/^(dist\/|package\.json$|README\.md$|LICENSE\.md$|index\.js$)/.test(file))).toEqual([]);
	});
});
