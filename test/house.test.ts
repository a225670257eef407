/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test under test/, never published */
/**
 * The rules of the house that docs/ARCHITECTURE.md states, checked on the source so they hold after the next change:
 * "Who may import whom", test/ holding tests only, each named once, and every file and test the note names existing.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const ROOT = resolve(__dirname, '..');

function sourceFiles(dir: string, pattern = /\.ts$/): string[] {
	return readdirSync(dir).flatMap((name) => {
		const full = join(dir, name);
		if (statSync(full).isDirectory()) return sourceFiles(full, pattern);
		return pattern.test(full) ? [full] : [];
	});
}

const packageFiles = [
	...sourceFiles(join(ROOT, 'nodes')),
	...sourceFiles(join(ROOT, 'credentials')),
];
const CODE = /\.(ts|mjs|js)$/;
const posix = (file: string) => relative(ROOT, file).split(sep).join('/');

/** Where a file may import from (docs/ARCHITECTURE.md, "Who may import whom"), by the folder it lives in. */
const ALLOWED: Array<{ from: RegExp; to: RegExp[] }> = [
	{ from: /^credentials\//, to: [/^credentials\//] },
	{
		from: /^nodes\/Stora\/Stora\.node\.ts$/,
		to: [/^nodes\/Stora\/(descriptions|helpers|methods|transport)(\/|$)/],
	},
	{ from: /^nodes\/Stora\/descriptions\//, to: [/^nodes\/Stora\/(descriptions|helpers)(\/|$)/] },
	{ from: /^nodes\/Stora\/methods\//, to: [/^nodes\/Stora\/(methods|transport|helpers)(\/|$)/] },
	{ from: /^nodes\/Stora\/transport\//, to: [/^nodes\/Stora\/(transport|helpers)(\/|$)/] },
	{ from: /^nodes\/Stora\/helpers\//, to: [/^nodes\/Stora\/helpers\//] },
	{
		from: /^nodes\/StoraTrigger\//,
		to: [/^nodes\/StoraTrigger\//, /^nodes\/Stora\/(transport|helpers)(\/|$)/],
	},
	{
		from: /^nodes\/StoraPollTrigger\//,
		to: [
			/^nodes\/StoraPollTrigger\//,
			/^nodes\/Stora\/(transport|helpers|methods|descriptions)(\/|$)/,
		],
	},
];
/** Packages the published code may import: n8n-workflow (a peer dependency) and Node's own modules. */
const PACKAGES = /^(n8n-workflow|crypto|node:[a-z_/]+|url|util|zlib|stream|buffer)$/;

function importsOf(file: string): string[] {
	const text = readFileSync(file, 'utf8');
	return [
		...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+'([^']+)'/g),
		...text.matchAll(/import\('([^']+)'\)/g),
	].map((match) => match[1]);
}

describe('the house rules of docs/ARCHITECTURE.md', () => {
	it('keeps test/ for tests: the npm scripts run what lives in scripts/, and the sandbox lives in sandbox/', () => {
		const scripts = (
			JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
				scripts: Record<string, string>;
			}
		).scripts;
		const fromTest = Object.entries(scripts).filter(([, command]) => /\btest\//.test(command));
		expect(fromTest).toEqual([]);
		const sandboxInTest = sourceFiles(join(ROOT, 'test')).filter((file) =>
			/\/test\/sandbox\//.test(file.split(sep).join('/')),
		);
		expect(sandboxInTest).toEqual([]);
	});

	it("names each test file once: no file name of test/ is also one of the sandbox's tests", () => {
		const names = (dir: string) =>
			new Set(sourceFiles(join(ROOT, dir), CODE).map((file) => file.split(sep).pop()!));
		const sandboxTests = names('sandbox/test');
		expect([...names('test')].filter((name) => sandboxTests.has(name))).toEqual([]);
	});

	it('imports only as "Who may import whom" allows (move the shared piece down into helpers/ or transport/ instead)', () => {
		const wrong: string[] = [];
		for (const file of packageFiles) {
			const from = posix(file);
			const rule = ALLOWED.find((candidate) => candidate.from.test(from));
			if (!rule) {
				wrong.push(`${from}: no rule in this test or docs/ARCHITECTURE.md for its folder`);
				continue;
			}
			for (const target of importsOf(file)) {
				if (!target.startsWith('.')) {
					if (!PACKAGES.test(target))
						wrong.push(
							`${from} imports the package ${target}: the published package has no runtime dependencies`,
						);
					continue;
				}
				const to = posix(resolve(dirname(file), target));
				if (!rule.to.some((allowed) => allowed.test(to))) wrong.push(`${from} imports ${to}`);
			}
		}
		expect(wrong).toEqual([]);
	});

	it("starts first, in a fresh clone, only suites that exist (test/setup/sequencer.cjs's list of long ones)", () => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- jest's sequencer is CommonJS, as jest loads it
		const { LONG } = require('./setup/sequencer.cjs') as { LONG: string[] };
		expect(LONG.length).toBeGreaterThan(0);
		expect(LONG.filter((file) => !existsSync(join(ROOT, file)))).toEqual([]);
	});

	it('names in docs/ARCHITECTURE.md only files and folders that exist, and tests by titles their files hold', () => {
		const note = readFileSync(join(ROOT, 'docs', 'ARCHITECTURE.md'), 'utf8');
		const everything = repositoryPaths(ROOT);
		const missing = namedPaths(note).filter(
			(path) =>
				!existsSync(join(ROOT, path)) && !everything.some((known) => known.endsWith(`/${path}`)),
		);
		expect(missing).toEqual([]);
		const titles = [...note.matchAll(/`([\w./-]+\.test\.ts)`,?\s+"([^"]+)"/g)].map(
			([, file, title]) => ({ file, title: oneLine(title).replace(/\.\.\.$/, '') }),
		);
		expect(titles.length).toBeGreaterThan(0);
		const untitled = titles.filter(({ file, title }) => {
			const found = everything.filter((known) => known === file || known.endsWith(`/${file}`));
			return !found.some((known) =>
				oneLine(readFileSync(join(ROOT, known), 'utf8')).includes(title),
			);
		});
		expect(untitled).toEqual([]);
	});
});

const oneLine = (text: string) => text.replace(/\s+/g, ' ');

/** Every file and folder of the repository (posix, relative, folders ending in `/`), without what is installed or built. */
function repositoryPaths(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		if (['node_modules', '.git', 'dist', 'build', '.cache', '.tools', 'coverage'].includes(name))
			return [];
		const full = join(dir, name);
		return statSync(full).isDirectory()
			? [`${posix(full)}/`, ...repositoryPaths(full)]
			: [posix(full)];
	});
}

/**
 * The repository paths a Markdown text names: in code spans and in parentheses, ending in a file extension or, in a
 * code span, in `/`. A placeholder (`<resource>.test.ts`) counts up to the folder before it; a path outside the
 * repository (`../shared/`), a build's output (`build/`, `dist/`) and a URL are not checked.
 */
function namedPaths(markdown: string): string[] {
	// A fenced block's lines count as words (its fences would pair with the code spans' backticks).
	const text = markdown.replace(/```/g, ' ');
	const spans = [...text.matchAll(/`([^`]+)`/g)].flatMap(([, span]) => span.split(/\s+/));
	const words = text.replace(/`[^`]*`/g, ' ').split(/[\s(),;:]+/);
	const paths = [...spans, ...words]
		.map((word) => word.replace(/^['"]|['".,]+$/g, ''))
		.filter(
			(word) =>
				/^[\w.<>{}-]+(\/[\w.<>{}-]*)*$/.test(word) &&
				/\/$|\.(ts|mjs|cjs|js|json|md|png)$/.test(word),
		)
		.filter((word) => word.includes('/') || /\.(ts|mjs|cjs|js|json|md|png)$/.test(word))
		.filter((word) => !word.startsWith('..') && !/^\/|^\d|^\.\w+$|^(build|dist)\//.test(word))
		.map((word) =>
			/[<{]/.test(word) ? word.slice(0, word.search(/[<{]/)).replace(/[^/]*$/, '') : word,
		)
		.filter((word) => word !== '');
	return [...new Set(paths)].sort();
}
