/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test under test/, never published */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';

import { StoraOAuth2Api } from '../credentials/StoraOAuth2Api.credentials';
import { Stora } from '../nodes/Stora/Stora.node';
import { DEFAULT_SCOPES } from '../nodes/Stora/helpers/scopes';
import {
	allFigures,
	FIGURES_DOCUMENTS,
	holdsSection,
	renderAllFigureSections,
} from './helpers/figures';
import {
	operationsSummary,
	operationsTable,
	replaceBetween,
	replaceSection,
	SUMMARY_END,
	SUMMARY_START,
} from '../scripts/operationsTable';

describe('README and descriptions stay in sync', () => {
	it('has the operation table (docs/operations.md) and its summary (README) generated from the node description (run `npm run readme` to fix)', () => {
		const operations = readFileSync(join(__dirname, '..', 'docs/operations.md'), 'utf8');
		const properties = new Stora().description.properties as never;
		const table = operationsTable(properties);
		expect(table.split('\n').length).toBeGreaterThan(3);
		expect(replaceSection(operations, table)).toBe(operations);
		const readme = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');
		expect(replaceBetween(readme, SUMMARY_START, SUMMARY_END, operationsSummary(properties))).toBe(
			readme,
		);
	});

	it('shows only screenshots the Chromium suite takes, so `npm run screenshots` retakes every one of them', () => {
		const root = join(__dirname, '..');
		const docs = [
			'README.md',
			'CONTRIBUTING.md',
			...readdirSync(join(root, 'docs'))
				.filter((name) => name.endsWith('.md'))
				.map((name) => `docs/${name}`),
		];
		const shown = new Set(
			docs.flatMap((file) =>
				[...readFileSync(join(root, file), 'utf8').matchAll(/screenshots\/([\w-]+)\.png/g)].map(
					(match) => match[1],
				),
			),
		);
		const browser = join(root, 'test', 'e2e', 'browser');
		const taken = readdirSync(browser)
			.map((name) => readFileSync(join(browser, name), 'utf8'))
			.join('\n');
		expect(shown.size).toBeGreaterThan(0);
		expect([...shown].filter((name) => !new RegExp(`['"\`]${name}['"\`]`).test(taken))).toEqual([]);
		const scripts = (
			JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
				scripts: Record<string, string>;
			}
		).scripts;
		expect(scripts.screenshots).toMatch(/ e2e .*--screenshots docs\/screenshots/);
	});

	it('links only to files and headings that exist (README, CONTRIBUTING, docs/, examples/)', () => {
		const root = join(__dirname, '..');
		const files = [
			'README.md',
			'CONTRIBUTING.md',
			'CHANGELOG.md',
			'examples/README.md',
			...readdirSync(join(root, 'docs'))
				.filter((name) => name.endsWith('.md'))
				.map((name) => `docs/${name}`),
		];
		// GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens.
		const anchors = (file: string) =>
			new Set(
				[...readFileSync(file, 'utf8').matchAll(/^#+ (.+)$/gm)].map((match) =>
					match[1]
						.trim()
						.toLowerCase()
						.replace(/[^\p{L}\p{N} _-]/gu, '')
						.replace(/ /g, '-'),
				),
			);
		const broken: string[] = [];
		for (const file of files) {
			const text = readFileSync(join(root, file), 'utf8');
			for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
				if (/^(https?:|mailto:)/.test(target)) continue;
				const [pathPart, anchor] = target.split('#');
				const resolved = pathPart ? join(root, dirname(file), pathPart) : join(root, file);
				if (!existsSync(resolved))
					broken.push(`${file}: ${target} (no ${relative(root, resolved)})`);
				else if (anchor && resolved.endsWith('.md') && !anchors(resolved).has(anchor))
					broken.push(`${file}: ${target} (no heading #${anchor})`);
			}
		}
		expect(broken).toEqual([]);
	});

	it('shows every measured-figures section (README.md, docs/quality.md) as its file in docs/figures/ holds it (run `npm run readme` to fix)', () => {
		const documents = Object.fromEntries(
			FIGURES_DOCUMENTS.map((file) => [file, readFileSync(join(__dirname, '..', file), 'utf8')]),
		);
		const sections = allFigures();
		expect(Object.keys(sections)).toEqual(
			expect.arrayContaining(['reliability', 'performance', 'firstRun']),
		);
		for (const [name, file] of Object.entries(sections)) {
			// Each section is shown in exactly one document, and holds what a run measured.
			const shownIn = Object.keys(documents).filter((document) =>
				holdsSection(documents[document], name),
			);
			expect({ name, shownIn: shownIn.length, rows: Object.keys(file.rows).length > 0 }).toEqual({
				name,
				shownIn: 1,
				rows: true,
			});
		}
		for (const [file, text] of Object.entries(documents))
			expect({ file, text: renderAllFigureSections(text) }).toEqual({ file, text });
	});

	it('shows the supported n8n versions as test/realN8n/versions.mjs lists them, in the table npm run test:versions wrote', () => {
		const readme = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');
		// versions.mjs is plain ESM for the harness: read it the way the harness does.
		const module = pathToFileURL(join(__dirname, 'realN8n', 'versions.mjs')).href;
		const script = `const m = await import(${JSON.stringify(module)}); console.log(JSON.stringify(m.N8N_VERSIONS));`;
		const versions = JSON.parse(
			execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }),
		) as Array<{
			n8n: string;
			line: string;
			node: number;
		}>;
		const start = readme.indexOf('<!-- versions:start');
		const section = readme.slice(start, readme.indexOf('<!-- versions:end -->'));
		expect(start).toBeGreaterThan(0);
		const rows = section
			.split('\n')
			.filter((line) => /^\| \d+\.\d+\.\d+ \|/.test(line))
			.map((line) => line.split('|').map((cell) => cell.trim()));
		expect(rows.map((cells) => [cells[1], Number(cells[2])])).toEqual(
			versions.map((version) => [version.n8n, version.node]),
		);
		expect(section).toMatch(new RegExp(`^versions: \\d+/${versions.length} passed$`, 'm'));
		// The same run in full in docs/compatibility.md, where the README links.
		const detail = readFileSync(join(__dirname, '..', 'docs/compatibility.md'), 'utf8');
		const full = detail.slice(
			detail.indexOf('<!-- versions-detail:start'),
			detail.indexOf('<!-- versions-detail:end -->'),
		);
		expect(
			full
				.split('\n')
				.filter((line) => /^\| \d+\.\d+\.\d+ \|/.test(line))
				.map((line) => line.split('|')[1].trim()),
		).toEqual(versions.map((version) => version.n8n));
		expect(full.match(/^versions: .*$/m)?.[0]).toBe(section.match(/^versions: .*$/m)?.[0]);
		expect(readme).toContain(
			`**n8n ${versions[0].line}** (the last 1.x line) **to ${versions[versions.length - 1].line}**`,
		);
		const peer = JSON.parse(
			readFileSync(join(__dirname, '..', 'package.json'), 'utf8'),
		).peerDependencies;
		expect(peer).toEqual({ 'n8n-workflow': '*' });
		expect(readme).toContain(`peer dependency is \`"n8n-workflow": "${peer['n8n-workflow']}"\``);
	});

	it('asks OAuth2 by default for the scopes the docs show (DEFAULT_SCOPES; the optional ones are described)', () => {
		const scope = new StoraOAuth2Api().properties.find((property) => property.name === 'scope');
		expect(String(scope?.default).split(' ').sort()).toEqual([...DEFAULT_SCOPES].sort());
	});
});
