// `npm run release`: what .github/workflows/publish.yml runs on a version tag. n8n accepts a community package only
// when it was published from a GitHub Action with an npm provenance statement, and npm refuses a provenance publish
// whose `repository.url` is missing or is not the building repository. So this refuses, naming each missing piece and
// its fix, until the package's metadata and lint setup are what the publish run needs; then builds, lints (n8n's
// strict mode), scans and publishes with provenance. CONTRIBUTING.md, "Publishing", has the maintainer's checklist.
//   node scripts/release.mjs              check, build, lint, scan, npm publish (in the publish workflow only)
//   node scripts/release.mjs --check      the checks only; exit 1 naming each fix
//   node scripts/release.mjs --dry-run    the whole publish run, ending in `npm publish --dry-run` (anywhere)
//   node scripts/release.mjs --prepare --author "Name <e-mail>" --repository <owner>/<repository>
//                                         fills package.json's publisher fields, sets "strict": true and writes
//                                         n8n's default eslint.config.mjs (what the checks ask for)
//   node scripts/release.mjs --bootstrap [--dry-run]
//                                         the first publish, by hand with 2FA, once: a placeholder 0.0.0 (package.json
//                                         and README only), because npm sets up trusted publishing only for a package
//                                         that exists; the tag then publishes the real version from the workflow
//   --package <file>                      another package.json to check, in its own folder (the tests use it)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The workflow that publishes; the only place a real publish may run (scripts/publishGuard.mjs holds npm to it). */
export const PUBLISH_WORKFLOW = '.github/workflows/publish.yml';

/**
 * n8n's default lint configuration, which `n8n-node lint` in strict mode requires eslint.config.mjs to be (whitespace
 * aside): @n8n/node-cli's template, read from node_modules when installed. The copy here is for a clone without
 * node_modules (`--prepare` before the first install); test/release.test.ts holds it to the installed template.
 */
export const DEFAULT_ESLINT_CONFIG = "import { config } from '@n8n/node-cli/eslint';\n\nexport default config;\n";
const ESLINT_TEMPLATE = 'node_modules/@n8n/node-cli/dist/template/templates/shared/default/eslint.config.mjs';

/** The npm that can publish through npm's trusted publishing (OIDC), the way publish.yml authenticates. */
const TRUSTED_PUBLISHING_NPM = [11, 5, 1];

const readIf = (file) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined);
const collapse = (text) => text.replace(/\s+/g, ' ').trim();

export function defaultEslintConfig(dir = REPO) {
	return readIf(path.join(dir, ESLINT_TEMPLATE)) ?? readIf(path.join(REPO, ESLINT_TEMPLATE)) ?? DEFAULT_ESLINT_CONFIG;
}

function authorOf(manifest) {
	if (typeof manifest.author !== 'string') return manifest.author;
	return { name: manifest.author.replace(/<.*>/, '').trim(), email: /<(.+)>/.exec(manifest.author)?.[1] };
}

/** Whether `version` (x.y.z) is at least `minimum` ([x, y, z]). */
function atLeast(version, minimum) {
	const parts = version.split('.').map(Number);
	for (let i = 0; i < minimum.length; i++) if ((parts[i] ?? 0) !== minimum[i]) return (parts[i] ?? 0) > minimum[i];
	return true;
}

/**
 * What keeps the package in `dir` (its package.json `manifest`) from being published from `env` (the GitHub Actions
 * environment), each as a sentence naming the fix. `rehearsal`: placeholder values (an example.com address) pass, as
 * in CI's rehearsal. `publishing`: the real publish, which runs in the publish workflow only, on an npm that can
 * publish through trusted publishing.
 */
export function releaseProblems(manifest, env = process.env, { dir = REPO, rehearsal = false, publishing = false, npmVersion } = {}) {
	const problems = [];
	const prepare = '--prepare below';
	const author = authorOf(manifest);
	if (!author?.name) problems.push(`package.json "author": the publisher's name (n8n shows it on the package; ${prepare})`);
	if (!author?.email || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(author.email)) problems.push(`package.json "author": the publisher's e-mail address (${prepare})`);
	if (!/^https:\/\/\S+$/.test(manifest.homepage ?? '')) problems.push(`package.json "homepage": the https address of the repository or its documentation (${prepare})`);
	const url = typeof manifest.repository === 'string' ? manifest.repository : manifest.repository?.url;
	const github = /^(?:git\+)?https:\/\/github\.com\/([^/\s]+\/[^/\s]+?)(?:\.git)?$/.exec(url ?? '');
	if (!github) problems.push(`package.json "repository.url": git+https://github.com/<owner>/<repository>.git, a public repository (npm refuses a provenance publish without it; ${prepare})`);
	else if (env.GITHUB_REPOSITORY && github[1].toLowerCase() !== env.GITHUB_REPOSITORY.toLowerCase()) {
		problems.push(`package.json "repository.url" names ${github[1]}, but this runs in ${env.GITHUB_REPOSITORY} (npm refuses the provenance): make it git+https://github.com/${env.GITHUB_REPOSITORY}.git`);
	}
	if (!rehearsal) {
		const placeholder = /@example\.(com|org|net)$|@[^@]*\.(example|invalid|test)$/i;
		if (author?.email && placeholder.test(author.email)) problems.push(`package.json "author": ${author.email} is a placeholder address; put the publisher's own`);
	}
	if (manifest.n8n?.strict !== true) problems.push(`package.json "n8n.strict": true (n8n's verification lints in strict mode; ${prepare})`);
	const eslintConfig = readIf(path.join(dir, 'eslint.config.mjs'));
	if (eslintConfig === undefined || collapse(eslintConfig) !== collapse(defaultEslintConfig(dir))) {
		problems.push(`eslint.config.mjs: n8n's default configuration, unchanged (in strict mode \`n8n-node lint\` refuses any other: "Strict mode violation"); ${prepare}`);
	}
	if (manifest.publishConfig?.provenance !== true) problems.push('package.json "publishConfig.provenance": true (npm then refuses any publish without a provenance statement)');
	if (manifest.publishConfig?.['ignore-scripts'] !== false || !/publishGuard\.mjs/.test(manifest.scripts?.prepack ?? '')) {
		problems.push('package.json "publishConfig": {"ignore-scripts": false} and "scripts.prepack": "node scripts/publishGuard.mjs" (the guard that refuses a publish outside the workflow and one without dist/)');
	}
	const changelog = readIf(path.join(dir, 'CHANGELOG.md')) ?? '';
	const section = new RegExp(`^## ${manifest.version?.replace(/\./g, '\\.')}\\b(.*)$`, 'm').exec(changelog);
	if (!section) problems.push(`CHANGELOG.md: a section "## ${manifest.version}" saying what this version brings`);
	else if (/unreleased/i.test(section[1])) problems.push(`CHANGELOG.md: "## ${manifest.version}${section[1]}" still says unreleased; drop that word (npm shows the date)`);
	if (env.GITHUB_REF_TYPE === 'tag' && env.GITHUB_REF_NAME !== `v${manifest.version}`) {
		problems.push(`the tag ${env.GITHUB_REF_NAME} is not v${manifest.version}, the version in package.json: push the tag v${manifest.version}, or set that version`);
	}
	if (publishing) {
		if (env.GITHUB_ACTIONS !== 'true' || !(env.GITHUB_WORKFLOW_REF ?? '').includes(`/${PUBLISH_WORKFLOW}@`)) {
			problems.push(`publishing runs in ${PUBLISH_WORKFLOW} only: push a tag v${manifest.version} (n8n requires npm provenance from a GitHub Action; \`npm run release -- --dry-run\` rehearses it anywhere)`);
		}
		if (npmVersion && !atLeast(npmVersion, TRUSTED_PUBLISHING_NPM)) {
			problems.push(`npm ${npmVersion} cannot publish through trusted publishing (needs ${TRUSTED_PUBLISHING_NPM.join('.')} or newer): use a Node whose npm is newer in ${PUBLISH_WORKFLOW}, or install npm@11 there first`);
		}
	}
	return problems;
}

/** Fills `manifest` (in `dir`) with the publisher's fields and strict mode, and writes n8n's default eslint.config.mjs. */
export function prepare(file, { author, repository }) {
	const name = author?.replace(/<.*>/, '').trim();
	const email = /<(.+)>/.exec(author ?? '')?.[1];
	const repo = /^(?:https:\/\/github\.com\/)?([\w.-]+\/[\w.-]+?)(?:\.git)?$/.exec(repository ?? '')?.[1];
	if (!name || !email || !repo) {
		throw new Error('--prepare needs --author "Name <e-mail>" and --repository <owner>/<repository> (the public GitHub repository publish.yml runs in)');
	}
	const dir = path.dirname(file);
	const manifest = JSON.parse(fs.readFileSync(file, 'utf8'));
	manifest.author = { name, email };
	manifest.homepage = `https://github.com/${repo}#readme`;
	manifest.repository = { type: 'git', url: `git+https://github.com/${repo}.git` };
	manifest.n8n = { ...manifest.n8n, strict: true };
	fs.writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
	fs.writeFileSync(path.join(dir, 'eslint.config.mjs'), defaultEslintConfig(dir));
	return manifest;
}

/** The placeholder version `--bootstrap` publishes: below any real one, so the tag's version becomes "latest". */
export const BOOTSTRAP_VERSION = '0.0.0';

/**
 * Publishes (by hand, npm asking for 2FA) the placeholder that lets npm's trusted publishing be set up: npm offers
 * it only for a package that exists. Made in a scratch folder, so nothing of this repository goes with it; without
 * the keyword n8n lists community packages by. Exits 1 naming what is missing.
 */
function bootstrap(manifest, dryRun) {
	const url = typeof manifest.repository === 'string' ? manifest.repository : manifest.repository?.url;
	if (!/^(?:git\+)?https:\/\/github\.com\//.test(url ?? '')) {
		console.error('[release] --bootstrap needs package.json "repository.url" first: `npm run release -- --prepare --author "Name <e-mail>" --repository <owner>/<repository>`');
		process.exit(1);
	}
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stora-bootstrap-'));
	try {
		const placeholder = {
			name: manifest.name,
			version: BOOTSTRAP_VERSION,
			description: `Placeholder that let npm's trusted publishing be set up for ${manifest.name}; install ${manifest.version} or later.`,
			license: manifest.license,
			repository: manifest.repository,
			homepage: manifest.homepage,
		};
		fs.writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(placeholder, null, 2)}\n`);
		fs.writeFileSync(
			path.join(dir, 'README.md'),
			`# ${manifest.name} ${BOOTSTRAP_VERSION}\n\nA placeholder, published by hand once so that npm's trusted publishing could be set up for this package ` +
				`(npm offers it only for a package that exists). It holds no nodes. Every real version is published from ` +
				`${PUBLISH_WORKFLOW} with a provenance statement: install ${manifest.version} or later.\n`,
		);
		console.log(`[release] placeholder ${manifest.name}@${BOOTSTRAP_VERSION} in ${dir}${dryRun ? ' (dry run)' : ': npm asks for your 2FA code'}`);
		const result = spawnSync('npm', ['publish', '--access', 'public', ...(dryRun ? ['--dry-run'] : [])], { cwd: dir, stdio: 'inherit' });
		if (result.status !== 0) process.exit(result.status ?? 1);
		if (!dryRun) {
			console.log(`[release] published ${manifest.name}@${BOOTSTRAP_VERSION}. Next: set the trusted publisher on npmjs.com (CONTRIBUTING.md, "The first publish"), then push the tag v${manifest.version}`);
		}
	} finally {
		fs.rmSync(dir, { recursive: true, force: true });
	}
}

function run(command, args, env = process.env) {
	console.log(`[release] ${command} ${args.join(' ')}`);
	const result = spawnSync(command, args, { cwd: REPO, stdio: 'inherit', env });
	if (result.status !== 0) {
		console.error(`[release] ${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal})`);
		process.exit(result.status ?? 1);
	}
}

function main() {
	const { values } = parseArgs({
		options: {
			check: { type: 'boolean' },
			'dry-run': { type: 'boolean' },
			prepare: { type: 'boolean' },
			bootstrap: { type: 'boolean' },
			author: { type: 'string' },
			repository: { type: 'string' },
			package: { type: 'string' },
		},
	});
	const file = path.resolve(values.package ?? path.join(REPO, 'package.json'));
	if (values.prepare) {
		const manifest = prepare(file, values);
		console.log(`[release] ${path.relative(process.cwd(), file) || file}: author, homepage, repository.url for ${manifest.repository.url}, "strict": true; eslint.config.mjs: n8n's default`);
		return;
	}
	const manifest = JSON.parse(fs.readFileSync(file, 'utf8'));
	const dryRun = values['dry-run'] === true;
	if (values.bootstrap) {
		bootstrap(manifest, dryRun);
		return;
	}
	const publishing = !values.check && !dryRun;
	const npmVersion = publishing ? spawnSync('npm', ['--version'], { encoding: 'utf8' }).stdout?.trim() : undefined;
	const problems = releaseProblems(manifest, process.env, { dir: path.dirname(file), rehearsal: dryRun, publishing, npmVersion });
	if (problems.length) {
		console.error(`[release] not ready to publish ${manifest.name}@${manifest.version}:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
		if (problems.some((p) => p.includes('--prepare below'))) {
			console.error('[release] --prepare: `npm run release -- --prepare --author "Name <e-mail>" --repository <owner>/<repository>` fills the publisher\'s fields, sets "strict": true and writes n8n\'s default eslint.config.mjs');
		}
		process.exit(1);
	}
	if (values.check) {
		console.log(`[release] ${manifest.name}@${manifest.version} is ready to publish (from ${PUBLISH_WORKFLOW}, on the tag v${manifest.version})`);
		return;
	}
	// STORA_RELEASE tells scripts/publishGuard.mjs (npm's prepack) that this run, not a hand-run npm publish, packs.
	const env = { ...process.env, STORA_RELEASE: dryRun ? 'dry-run' : 'publish' };
	run('npm', ['run', 'build']);
	run('npm', ['run', 'lint']);
	run('npm', ['run', 'scan']);
	run('npm', ['publish', '--provenance', '--access', 'public', ...(dryRun ? ['--dry-run'] : [])], env);
	if (dryRun) console.log(`[release] rehearsal passed: ${manifest.name}@${manifest.version} would be published (npm publish --dry-run)`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
