// npm's `prepack` for this package: refuses a publish that does not come from the publish workflow, and any pack
// whose dist/ lacks a node or credential n8n loads. .npmrc turns scripts off (for the dependencies' install scripts),
// which would skip this too; package.json's "publishConfig": {"ignore-scripts": false} turns them back on for
// `npm publish` alone, so a hand-run `npm publish` (dry run included) gets here on npm 10, 11 and 12. `npm pack`
// keeps them off: the tests and the scanner pack without this check. npm runs no script of the package for
// `npm publish <tarball>` or `--ignore-scripts`, so nothing here sees those (CONTRIBUTING.md, "Publishing", says what
// still stands against them).
import fs from 'node:fs';
import path from 'node:path';

const PUBLISH_WORKFLOW = '.github/workflows/publish.yml';

const manifest = JSON.parse(fs.readFileSync('package.json', 'utf8'));
const problems = [];
const env = process.env;
if (env.npm_command === 'publish') {
	// npm hands its settings to scripts as npm_config_* only where they differ from npm's defaults: `--provenance`
	// shows as "true", while `--provenance=false` looks like no flag at all, so provenance must be seen asked for.
	const fromWorkflow =
		env.STORA_RELEASE === 'publish' &&
		env.GITHUB_ACTIONS === 'true' &&
		(env.GITHUB_WORKFLOW_REF ?? '').includes(`/${PUBLISH_WORKFLOW}@`) &&
		env.npm_config_provenance === 'true';
	const rehearsal = env.STORA_RELEASE === 'dry-run' && env.npm_config_dry_run === 'true';
	// `npm run release -- --rehearse`: a real publish, but only to the registry it started on this machine's loopback.
	const local =
		env.STORA_RELEASE === 'rehearse' &&
		/^http:\/\/127\.0\.0\.1:\d+\/?$/.test(env.npm_config_registry ?? '');
	if (!fromWorkflow && !rehearsal && !local) {
		problems.push(
			`${manifest.name} is published by ${PUBLISH_WORKFLOW} only, on a tag v${manifest.version} (CONTRIBUTING.md, "Publishing"): ` +
				'n8n verifies a community package only when a GitHub Action published it with provenance, and that run checks, ' +
				'builds, lints and scans first. `npm run release -- --dry-run` rehearses that run here.',
		);
	}
}
const missing = [...(manifest.n8n?.nodes ?? []), ...(manifest.n8n?.credentials ?? [])].filter(
	(file) => !fs.existsSync(path.resolve(file)),
);
if (missing.length)
	problems.push(`dist/ lacks what n8n loads (${missing.join(', ')}): \`npm run build\` first`);
if (problems.length) {
	console.error(
		`[publish guard] refused:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`,
	);
	process.exit(1);
}
