/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test under test/, never published */
/**
 * What is published and what a newcomer reads says what the code is, not how it came to be: no issue number, no commit
 * hash and no path outside the repository (`../shared/`, which a clone from GitHub does not have). CHANGELOG.md is
 * the history and is not read here.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';

const ROOT = resolve(__dirname, '..');
const TEXT = /\.(ts|js|mjs|cjs|json|md|svg)$/;

function textFiles(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const full = join(dir, name);
		if (statSync(full).isDirectory()) return textFiles(full);
		return TEXT.test(name) ? [full] : [];
	});
}

const files = [
	...['nodes', 'credentials', 'docs'].flatMap((dir) => textFiles(join(ROOT, dir))),
	join(ROOT, 'README.md'),
].map((file) => ({
	path: relative(ROOT, file).split(sep).join('/'),
	lines: readFileSync(file, 'utf8').split('\n'),
}));

/** Every line matching `pattern`, as `path:line: text`. */
function linesMatching(
	pattern: RegExp,
	keep: (match: RegExpMatchArray) => boolean = () => true,
): string[] {
	return files.flatMap(({ path, lines }) =>
		lines.flatMap((line, index) =>
			[...line.matchAll(new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`))]
				.filter(keep)
				.map((match) => `${path}:${index + 1}: ${match[0]}`),
		),
	);
}

/** The words among `words` that git knows as commits of this repository (abbreviated or whole). */
function commitsAmong(words: string[]): Set<string> {
	if (words.length === 0) return new Set();
	const input = words.map((word) => `${word}^{commit}`).join('\n') + '\n';
	const answers = execFileSync('git', ['cat-file', '--batch-check'], {
		cwd: ROOT,
		input,
		encoding: 'utf8',
	}).split('\n');
	return new Set(words.filter((_, index) => / commit \d+$/.test(answers[index] ?? '')));
}

describe('no history in what is published or read first (nodes/, credentials/, docs/, README.md)', () => {
	it('names no issue: a comment or doc says why, the issue tracker says when', () => {
		expect(linesMatching(/\bissues?\s+#?\d+|(?:^|[\s(])#\d+\b/i)).toEqual([]);
	});

	it('names no commit: what a run measured carries its figures, not the commit it ran on', () => {
		// Hex words that could be a hash (7 to 40 characters, digits and letters both), kept where git resolves them:
		// an example ID or a colour in the code is not a commit of this repository.
		const HEX = /\b[0-9a-f]{7,40}\b/i;
		const candidates = linesMatching(HEX, ([word]) => /\d/.test(word) && /[a-f]/i.test(word));
		const commits = commitsAmong([
			...new Set(candidates.map((line) => line.slice(line.lastIndexOf(' ') + 1))),
		]);
		expect(candidates.filter((line) => commits.has(line.slice(line.lastIndexOf(' ') + 1)))).toEqual(
			[],
		);
	});

	it('names no path outside the repository: a clone has no ../shared, links go to docs.stora.co or docs.n8n.io', () => {
		expect(linesMatching(/\.\.\/shared\//)).toEqual([]);
	});
});
