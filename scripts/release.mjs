// `npm run release`: what .github/workflows/publish.yml runs on a version tag. n8n accepts a community package only
// when it was published from a GitHub Action with an npm provenance statement, and npm refuses a provenance publish
// whose `repository.url` is missing or is not the building repository. So this refuses, naming each missing piece,
// until the package's metadata is real; then builds, checks and publishes with provenance.
//   node scripts/release.mjs            check, build, lint, scan, publish (in the publish workflow only)
//   node scripts/release.mjs --check    the checks only; exit 1 naming what is missing
//   --package <file>                    another package.json to check (the tests use it)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** What keeps `manifest` from being published from `env` (the GitHub Actions environment), each as a sentence. */
export function releaseProblems(manifest, env = process.env) {
	const problems = [];
	const author = typeof manifest.author === 'string' ? { name: manifest.author.replace(/<.*>/, '').trim(), email: /<(.+)>/.exec(manifest.author)?.[1] } : manifest.author;
	if (!author?.name) problems.push('package.json "author": the publisher\'s name (n8n shows it on the package)');
	if (!author?.email || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(author.email)) problems.push('package.json "author": the publisher\'s e-mail address');
	if (!/^https:\/\/\S+$/.test(manifest.homepage ?? '')) problems.push('package.json "homepage": the https address of the repository or its documentation');
	const url = typeof manifest.repository === 'string' ? manifest.repository : manifest.repository?.url;
	const github = /^(?:git\+)?https:\/\/github\.com\/([^/\s]+\/[^/\s]+?)(?:\.git)?$/.exec(url ?? '');
	if (!github) problems.push('package.json "repository.url": git+https://github.com/<owner>/<repository>.git (npm refuses a provenance publish without it)');
	else if (env.GITHUB_REPOSITORY && github[1].toLowerCase() !== env.GITHUB_REPOSITORY.toLowerCase()) {
		problems.push(`package.json "repository.url" names ${github[1]}, but this runs in ${env.GITHUB_REPOSITORY} (npm refuses the provenance)`);
	}
	if (manifest.n8n?.strict !== true) problems.push('package.json "n8n.strict": true (n8n\'s verification lints in strict mode)');
	if (env.GITHUB_REF_TYPE === 'tag' && env.GITHUB_REF_NAME !== `v${manifest.version}`) {
		problems.push(`the tag ${env.GITHUB_REF_NAME} is not v${manifest.version}, the version in package.json`);
	}
	return problems;
}

function run(command, args) {
	console.log(`[release] ${command} ${args.join(' ')}`);
	const result = spawnSync(command, args, { cwd: REPO, stdio: 'inherit' });
	if (result.status !== 0) process.exit(result.status ?? 1);
}

function main() {
	const { values } = parseArgs({ options: { check: { type: 'boolean' }, package: { type: 'string' } } });
	const file = path.resolve(values.package ?? path.join(REPO, 'package.json'));
	const manifest = JSON.parse(fs.readFileSync(file, 'utf8'));
	const problems = releaseProblems(manifest);
	if (!values.check && process.env.GITHUB_ACTIONS !== 'true') {
		problems.push('publishing runs in .github/workflows/publish.yml only: push a tag v<version> (n8n requires npm provenance from a GitHub Action)');
	}
	if (problems.length) {
		console.error(`[release] not ready to publish ${manifest.name}@${manifest.version}:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
		process.exit(1);
	}
	if (values.check) {
		console.log(`[release] ${manifest.name}@${manifest.version} is ready to publish`);
		return;
	}
	run('npm', ['run', 'build']);
	run('npm', ['run', 'lint']);
	run('npm', ['run', 'scan']);
	run('npm', ['publish', '--provenance', '--access', 'public']);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
