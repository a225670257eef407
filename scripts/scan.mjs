// Runs n8n's community package scanner offline, the way n8n verifies a published package: once on the source
// (package.json, nodes/, credentials/) and once on the unpacked `npm pack` tarball. Also checks what the tarball holds:
// what n8n loads, and no source maps or type declarations.
// One exception while package.json says "strict": false, printed on every run: it has no author e-mail and no
// homepage until the package has a publisher whose true values they are (CONTRIBUTING.md, "Publishing"). With
// "strict": true, as the publish run requires, every finding fails. Runs on Node 20 and newer.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { ESLint } from 'eslint';

import {
	buildScanConfig,
	SOURCE_FILE_PATTERNS,
} from '@n8n/scan-community-package/scanner/scanner.mjs';

// The scanner's own file search (fs.globSync would need Node 22).
const glob = createRequire(import.meta.resolve('@n8n/scan-community-package/scanner/scanner.mjs'))(
	'fast-glob',
);

/** The findings that only the publisher can clear with true values: waived only while "strict" is false. */
const strict = JSON.parse(readFileSync('package.json', 'utf8')).n8n?.strict === true;
const PUBLISHER_RULES = new Set(
	strict
		? []
		: [
				'@n8n/community-nodes/valid-author',
				'@n8n/community-nodes/require-homepage',
				'n8n-nodes-base/community-package-json-author-missing',
			],
);

/** The scanner's own configuration and file selection (as its analyzePackage), with the publisher's findings apart. */
async function analyzePackage(packageDir, filePatterns) {
	const eslint = new ESLint({
		cwd: packageDir,
		allowInlineConfig: false,
		overrideConfigFile: true,
		overrideConfig: await buildScanConfig(),
	});
	const files = glob.sync(filePatterns, {
		cwd: packageDir,
		absolute: true,
		ignore: ['node_modules/**', '**/package-lock.json'],
	});
	const results = await eslint.lintFiles(files);
	const waiting = [];
	for (const result of results) {
		const kept = result.messages.filter((message) => !PUBLISHER_RULES.has(message.ruleId));
		waiting.push(
			...result.messages
				.filter((message) => PUBLISHER_RULES.has(message.ruleId))
				.map((message) => message.message),
		);
		result.messages = kept;
		result.errorCount = kept.filter((message) => message.severity === 2).length;
		result.warningCount = kept.filter((message) => message.severity === 1).length;
	}
	const message = waiting.length
		? `waiting for the publisher: ${[...new Set(waiting)].join('; ')}`
		: '';
	if (results.some((result) => result.errorCount > 0)) {
		const details = await (await eslint.loadFormatter('stylish')).format(results);
		return { passed: false, message: 'ESLint violations found', details };
	}
	return { passed: true, message };
}

const root = process.cwd();
const work = mkdtempSync(join(tmpdir(), 'stora-scan-'));
let failed = false;

function report(label, result) {
	if (result.passed) {
		console.log(`scanner ${label}: passed${result.message ? ` (${result.message})` : ''}`);
	} else {
		failed = true;
		console.error(`scanner ${label}: FAILED: ${result.message}\n${result.details ?? ''}`);
	}
}

try {
	report('source', await analyzePackage(root, SOURCE_FILE_PATTERNS));

	// npm 10 and 11 print a list of packages, npm 12 an object by package name.
	const listed = JSON.parse(
		execFileSync('npm', ['pack', '--json', '--pack-destination', work], {
			cwd: root,
			encoding: 'utf8',
		}),
	);
	const packed = (Array.isArray(listed) ? listed : Object.values(listed))[0];
	const allowed = /^(dist\/|package\.json$|README\.md$|LICENSE\.md$|CHANGELOG\.md$|index\.js$)/;
	const unexpected = packed.files
		.map((file) => file.path)
		.filter((path) => !allowed.test(path) || /\.(js\.map|d\.ts)$/.test(path));
	const leakedTests = packed.files
		.map((file) => file.path)
		.filter((path) => /test|sandbox/i.test(path));
	if (unexpected.length || leakedTests.length) {
		failed = true;
		console.error(
			`tarball holds files it should not: ${[...unexpected, ...leakedTests].join(', ')}`,
		);
	} else {
		console.log(
			`tarball: ${packed.files.length} files, ${packed.size} bytes (${packed.unpackedSize} unpacked), only dist/ without maps or declarations, package.json, README, licence, changelog`,
		);
	}

	const unpacked = join(work, 'unpacked');
	execFileSync('mkdir', ['-p', unpacked]);
	execFileSync('tar', [
		'-xzf',
		join(work, packed.filename),
		'-C',
		unpacked,
		'--strip-components=1',
	]);
	if (!readdirSync(unpacked).includes('dist')) {
		failed = true;
		console.error('tarball has no dist/: run the build first');
	}
	report('tarball', await analyzePackage(unpacked, ['**/*.js', 'package.json']));
} finally {
	rmSync(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
