/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test under test/, never published */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { StoraOAuth2Api } from '../credentials/StoraOAuth2Api.credentials';
import { Stora } from '../nodes/Stora/Stora.node';
import { DEFAULT_SCOPES } from '../nodes/Stora/helpers/constants';
import { allFigures, renderAllFigureSections } from './helpers/figures';
import { operationsTable, replaceSection } from '../scripts/operationsTable';

describe('README and descriptions stay in sync', () => {
	it('has the operation table generated from the node description (run `npm run readme` to fix)', () => {
		const readme = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');
		const table = operationsTable(new Stora().description.properties as never);
		expect(table.split('\n').length).toBeGreaterThan(3);
		expect(replaceSection(readme, table)).toBe(readme);
	});

	it('shows every measured-figures section as its file in docs/figures/ holds it (run `npm run readme` to fix)', () => {
		const readme = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');
		const sections = allFigures();
		// The reliability section at least; a section whose markers are missing makes the renderer throw.
		expect(Object.keys(sections)).toContain('reliability');
		for (const [name, file] of Object.entries(sections)) expect({ name, rows: Object.keys(file.rows).length > 0 }).toEqual({ name, rows: true });
		expect(renderAllFigureSections(readme)).toBe(readme);
	});

	it('shows the supported n8n versions as test/realN8n/versions.mjs lists them, in the table npm run test:versions wrote', () => {
		const readme = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');
		// versions.mjs is plain ESM for the harness: read it the way the harness does.
		const module = pathToFileURL(join(__dirname, 'realN8n', 'versions.mjs')).href;
		const script = `const m = await import(${JSON.stringify(module)}); console.log(JSON.stringify(m.N8N_VERSIONS));`;
		const versions = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })) as Array<{
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
		expect(rows.map((cells) => [cells[1], Number(cells[3])])).toEqual(versions.map((version) => [version.n8n, version.node]));
		expect(section).toMatch(new RegExp(`^versions: \\d+/${versions.length} passed$`, 'm'));
		expect(readme).toContain(`**n8n ${versions[0].line}** (the last 1.x line) **to ${versions[versions.length - 1].line}**`);
		const peer = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')).peerDependencies;
		expect(peer).toEqual({ 'n8n-workflow': '*' });
		expect(readme).toContain(`peer dependency is \`"n8n-workflow": "${peer['n8n-workflow']}"\``);
	});

	it('asks OAuth2 by default for the scopes the docs show (DEFAULT_SCOPES; the optional ones are described)', () => {
		const scope = new StoraOAuth2Api().properties.find((property) => property.name === 'scope');
		expect(String(scope?.default).split(' ').sort()).toEqual([...DEFAULT_SCOPES].sort());
	});
});
