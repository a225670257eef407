// Runs n8n's community package scanner offline, the way n8n verifies a published package: once on the source
// (package.json, nodes/, credentials/) and once on the unpacked `npm pack` tarball. Also checks what the tarball holds.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { analyzePackage, SOURCE_FILE_PATTERNS } from '@n8n/scan-community-package/scanner/scanner.mjs';

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

	const packed = JSON.parse(
		execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: root, encoding: 'utf8' }),
	)[0];
	const allowed = /^(dist\/|package\.json$|README\.md$|LICENSE\.md$|CHANGELOG\.md$|index\.js$)/;
	const unexpected = packed.files.map((file) => file.path).filter((path) => !allowed.test(path));
	const leakedTests = packed.files.map((file) => file.path).filter((path) => /test|sandbox/i.test(path));
	if (unexpected.length || leakedTests.length) {
		failed = true;
		console.error(`tarball holds files it should not: ${[...unexpected, ...leakedTests].join(', ')}`);
	} else {
		console.log(`tarball: ${packed.files.length} files, ${packed.size} bytes, only dist/, package.json, README, licence`);
	}

	const unpacked = join(work, 'unpacked');
	execFileSync('mkdir', ['-p', unpacked]);
	execFileSync('tar', ['-xzf', join(work, packed.filename), '-C', unpacked, '--strip-components=1']);
	if (!readdirSync(unpacked).includes('dist')) {
		failed = true;
		console.error('tarball has no dist/: run the build first');
	}
	report('tarball', await analyzePackage(unpacked, ['**/*.js', 'package.json']));
} finally {
	rmSync(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
