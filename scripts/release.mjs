// `npm run release`: what .github/workflows/publish.yml runs on a version tag. n8n verifies a community package (n8n
// Cloud installs verified ones only) only when it was published from a GitHub Action with an npm provenance
// statement, and npm refuses a provenance publish whose `repository.url` is missing or is not the building repository.
// So this refuses, naming each missing piece and its fix, until the package's metadata and lint setup are what the
// publish run needs; then gets npm's trusted-publishing token, builds, lints (n8n's strict mode), scans and publishes
// with provenance. CONTRIBUTING.md, "Publishing", has the maintainer's checklist.
//   node scripts/release.mjs              check, build, lint, scan, npm publish (in the publish workflow only)
//   node scripts/release.mjs --check      the checks only; exit 1 naming each fix
//   node scripts/release.mjs --dry-run    the whole publish run, ending in `npm publish --dry-run` (anywhere)
//   node scripts/release.mjs --prepare --author "Name <e-mail>" --repository <owner>/<repository>
//                                         fills package.json's publisher fields, sets "strict": true and writes
//                                         n8n's default eslint.config.mjs (what the checks ask for)
//   node scripts/release.mjs --bootstrap [--dry-run] [--built]
//                                         the first publish, by hand with 2FA, once: this package numbered 0.0.0,
//                                         because npm sets up trusted publishing only for a package that exists; the
//                                         tag then publishes the real version from the workflow (--built: no build)
//   node scripts/release.mjs --rehearse   the first publish and install end to end against a local Verdaccio
//                                         (scripts/rehearse.mjs)
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
 * node_modules (`--prepare` before the first install); test/tooling/release.test.ts holds it to the installed template.
 */
export const DEFAULT_ESLINT_CONFIG =
	"import { config } from '@n8n/node-cli/eslint';\n\nexport default config;\n";
const ESLINT_TEMPLATE =
	'node_modules/@n8n/node-cli/dist/template/templates/shared/default/eslint.config.mjs';

/** The npm that can publish through npm's trusted publishing (OIDC), the way publish.yml authenticates. */
const TRUSTED_PUBLISHING_NPM = [11, 5, 1];

const readIf = (file) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined);
const collapse = (text) => text.replace(/\s+/g, ' ').trim();

export function defaultEslintConfig(dir = REPO) {
	return (
		readIf(path.join(dir, ESLINT_TEMPLATE)) ??
		readIf(path.join(REPO, ESLINT_TEMPLATE)) ??
		DEFAULT_ESLINT_CONFIG
	);
}

function authorOf(manifest) {
	if (typeof manifest.author !== 'string') return manifest.author;
	return {
		name: manifest.author.replace(/<.*>/, '').trim(),
		email: /<(.+)>/.exec(manifest.author)?.[1],
	};
}

/** Whether `version` (x.y.z) is at least `minimum` ([x, y, z]). */
function atLeast(version, minimum) {
	const parts = version.split('.').map(Number);
	for (let i = 0; i < minimum.length; i++)
		if ((parts[i] ?? 0) !== minimum[i]) return (parts[i] ?? 0) > minimum[i];
	return true;
}

/**
 * What keeps the package in `dir` (its package.json `manifest`) from being published from `env` (the GitHub Actions
 * environment), each as a sentence naming the fix. `rehearsal`: placeholder values (an example.com address) pass, as
 * in CI's rehearsal. `publishing`: the real publish, which runs in the publish workflow only, on an npm that can
 * publish through trusted publishing.
 */
export function releaseProblems(
	manifest,
	env = process.env,
	{ dir = REPO, rehearsal = false, publishing = false, npmVersion } = {},
) {
	const problems = [];
	const prepare = '--prepare below';
	const author = authorOf(manifest);
	if (!author?.name)
		problems.push(
			`package.json "author": the publisher's name (n8n shows it on the package; ${prepare})`,
		);
	if (!author?.email || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(author.email))
		problems.push(`package.json "author": the publisher's e-mail address (${prepare})`);
	if (!/^https:\/\/\S+$/.test(manifest.homepage ?? ''))
		problems.push(
			`package.json "homepage": the https address of the repository or its documentation (${prepare})`,
		);
	const url =
		typeof manifest.repository === 'string' ? manifest.repository : manifest.repository?.url;
	const github = /^(?:git\+)?https:\/\/github\.com\/([^/\s]+\/[^/\s]+?)(?:\.git)?$/.exec(url ?? '');
	if (!github)
		problems.push(
			`package.json "repository.url": git+https://github.com/<owner>/<repository>.git, a public repository (npm refuses a provenance publish without it; ${prepare})`,
		);
	// npm compares the two exactly, case included, and refuses the upload (E422) after the provenance is signed.
	else if (env.GITHUB_REPOSITORY && github[1] !== env.GITHUB_REPOSITORY) {
		problems.push(
			`package.json "repository.url" names ${github[1]}, but this runs in ${env.GITHUB_REPOSITORY} (npm compares them exactly, case included, and refuses the provenance with E422): make it git+https://github.com/${env.GITHUB_REPOSITORY}.git`,
		);
	}
	if (!rehearsal) {
		const placeholder = /@example\.(com|org|net)$|@[^@]*\.(example|invalid|test)$/i;
		if (author?.email && placeholder.test(author.email))
			problems.push(
				`package.json "author": ${author.email} is a placeholder address; put the publisher's own`,
			);
	}
	if (manifest.n8n?.strict !== true)
		problems.push(
			`package.json "n8n.strict": true (n8n's verification lints in strict mode; ${prepare})`,
		);
	const eslintConfig = readIf(path.join(dir, 'eslint.config.mjs'));
	if (eslintConfig === undefined || collapse(eslintConfig) !== collapse(defaultEslintConfig(dir))) {
		problems.push(
			`eslint.config.mjs: n8n's default configuration, unchanged (in strict mode \`n8n-node lint\` refuses any other: "Strict mode violation"); ${prepare}`,
		);
	}
	if (manifest.publishConfig?.provenance !== true)
		problems.push(
			'package.json "publishConfig.provenance": true (npm then makes every publish of this folder sign a provenance statement, unless told --provenance=false)',
		);
	if (
		manifest.publishConfig?.['ignore-scripts'] !== false ||
		!/publishGuard\.mjs/.test(manifest.scripts?.prepack ?? '')
	) {
		problems.push(
			'package.json "publishConfig": {"ignore-scripts": false} and "scripts.prepack": "node scripts/publishGuard.mjs" (the guard that refuses a publish outside the workflow and one without dist/)',
		);
	}
	const changelog = readIf(path.join(dir, 'CHANGELOG.md')) ?? '';
	const section = new RegExp(`^## ${manifest.version?.replace(/\./g, '\\.')}\\b(.*)$`, 'm').exec(
		changelog,
	);
	if (!section)
		problems.push(
			`CHANGELOG.md: a section "## ${manifest.version}" saying what this version brings`,
		);
	else if (/unreleased/i.test(section[1]))
		problems.push(
			`CHANGELOG.md: "## ${manifest.version}${section[1]}" still says unreleased; drop that word (npm shows the date)`,
		);
	if (env.GITHUB_REF_TYPE === 'tag' && env.GITHUB_REF_NAME !== `v${manifest.version}`) {
		problems.push(
			`the tag ${env.GITHUB_REF_NAME} is not v${manifest.version}, the version in package.json: push the tag v${manifest.version}, or set that version`,
		);
	}
	if (publishing) {
		if (
			env.GITHUB_ACTIONS !== 'true' ||
			!(env.GITHUB_WORKFLOW_REF ?? '').includes(`/${PUBLISH_WORKFLOW}@`)
		) {
			problems.push(
				`publishing runs in ${PUBLISH_WORKFLOW} only: push a tag v${manifest.version} (n8n's verification requires npm provenance from a GitHub Action; \`npm run release -- --dry-run\` rehearses it anywhere)`,
			);
		}
		if (npmVersion && !atLeast(npmVersion, TRUSTED_PUBLISHING_NPM)) {
			problems.push(
				`npm ${npmVersion} cannot publish through trusted publishing (needs ${TRUSTED_PUBLISHING_NPM.join('.')} or newer): use a Node whose npm is newer in ${PUBLISH_WORKFLOW}, or install npm@11 there first`,
			);
		}
	}
	return problems;
}

/** Fills `manifest` (in `dir`) with the publisher's fields and strict mode, and writes n8n's default eslint.config.mjs. */
export function prepare(file, { author, repository }) {
	const name = author?.replace(/<.*>/, '').trim();
	const email = /<(.+)>/.exec(author ?? '')?.[1];
	const repo = /^(?:https:\/\/github\.com\/)?([\w.-]+\/[\w.-]+?)(?:\.git)?$/.exec(
		repository ?? '',
	)?.[1];
	if (!name || !email || !repo) {
		throw new Error(
			'--prepare needs --author "Name <e-mail>" and --repository <owner>/<repository> (the public GitHub repository publish.yml runs in)',
		);
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

/** The version `--bootstrap` publishes: below any real one, so the tag's version becomes "latest". */
export const BOOTSTRAP_VERSION = '0.0.0';

/**
 * The first publish, by hand once (npm asking for 2FA): npm offers trusted publishing only for a package that
 * exists, and gives a new package's first version the "latest" tag. So that version is this package as built
 * here, only numbered 0.0.0 and without provenance: whoever installs "latest" before the tag runs gets the nodes,
 * and 0.0.0 is unpublished once the tag's version is out (CONTRIBUTING.md, "The first publish"). Packed as npm
 * packs the release, unpacked into a scratch folder, renumbered and published from there, without the prepack guard
 * (not in the tarball) and provenance (only CI makes one). `npmArgs`: more for npm publish (the rehearsal's registry).
 */
export function bootstrap(
	dir,
	{
		dryRun = false,
		built = false,
		quiet = false,
		npmArgs = [],
		env = process.env,
		log = (line) => console.log(`[release] ${line}`),
	} = {},
) {
	const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
	const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'stora-bootstrap-'));
	// Without `quiet`, npm's list of what it publishes (stderr) goes to the terminal; with it, only into an error.
	const npm = (args, cwd) => {
		const result = spawnSync('npm', args, {
			cwd,
			env,
			encoding: 'utf8',
			stdio: ['inherit', 'pipe', quiet ? 'pipe' : 'inherit'],
		});
		if (result.status !== 0)
			throw new Error(
				`npm ${args.join(' ')} failed (exit ${result.status ?? result.signal})${quiet ? `:\n${result.stderr}` : ''}`,
			);
		return result.stdout;
	};
	try {
		if (!built) npm(['run', 'build'], dir);
		// npm 10 and 11 print a list, npm 12 an object by package name.
		const list = JSON.parse(
			npm(['pack', '--json', '--ignore-scripts', '--pack-destination', scratch], dir),
		);
		const [{ filename }] = Array.isArray(list) ? list : Object.values(list);
		const folder = path.join(scratch, 'package');
		fs.mkdirSync(folder);
		const untar = spawnSync(
			'tar',
			['-xzf', path.join(scratch, filename), '-C', folder, '--strip-components=1'],
			{ stdio: 'inherit' },
		);
		if (untar.status !== 0) throw new Error(`tar could not unpack ${filename}`);
		const packed = JSON.parse(fs.readFileSync(path.join(folder, 'package.json'), 'utf8'));
		const missing = [...(packed.n8n?.nodes ?? []), ...(packed.n8n?.credentials ?? [])].filter(
			(file) => !fs.existsSync(path.join(folder, file)),
		);
		if (missing.length)
			throw new Error(
				`the package lacks what n8n loads (${missing.join(', ')}): \`npm run build\` first`,
			);
		packed.version = BOOTSTRAP_VERSION;
		delete packed.scripts?.prepack;
		delete packed.publishConfig?.provenance;
		fs.writeFileSync(path.join(folder, 'package.json'), `${JSON.stringify(packed, null, 2)}\n`);
		log(
			`${manifest.name}@${BOOTSTRAP_VERSION}: this package as built here, numbered ${BOOTSTRAP_VERSION}${dryRun ? ' (dry run)' : ''}`,
		);
		const out = npm(
			['publish', '--access', 'public', ...(dryRun ? ['--dry-run'] : []), ...npmArgs],
			folder,
		);
		if (out.trim()) log(out.trim());
	} finally {
		fs.rmSync(scratch, { recursive: true, force: true });
	}
	return manifest;
}

/** What `--check` cannot see, said next to "ready": the package on npm and its trusted publisher (npmjs.com only). */
function unseen(manifest) {
	const repo =
		/github\.com\/([^/\s]+\/[^/\s]+?)(?:\.git)?$/.exec(manifest.repository?.url ?? '')?.[1] ??
		'<owner>/<repository>';
	return (
		`whether ${manifest.name} is on npm with a trusted publisher for this workflow. Confirm on npmjs.com, the package's ` +
		`Settings, Trusted Publisher: GitHub Actions, ${repo} (as GitHub spells it, case included), workflow filename ` +
		`${path.basename(PUBLISH_WORKFLOW)}, no environment. The publish run asks npm first and stops, naming the fix, where npm refuses ` +
		'(CONTRIBUTING.md, "When the publish step fails").'
	);
}

/**
 * npm's trusted publishing, done before anything is built: the GitHub id-token for npm's audience, exchanged at
 * `registry` for a publish token, as npm's own `npm publish` does. npm logs a failed exchange at verbose level only
 * and then publishes with whatever token is configured (actions/setup-node writes a placeholder), which npm answers
 * with a bare E404 or ENEEDAUTH; this stops with the cause and the fix instead. Returns the publish token.
 */
async function trustedPublishingToken(manifest, registry, env = process.env) {
	const fail = (why) => {
		throw new Error(`npm's trusted publishing for ${manifest.name} failed: ${why}`);
	};
	if (!env.ACTIONS_ID_TOKEN_REQUEST_URL || !env.ACTIONS_ID_TOKEN_REQUEST_TOKEN) {
		fail(
			`this job has no GitHub id-token: ${PUBLISH_WORKFLOW} needs "permissions: id-token: write" and a GitHub-hosted runner`,
		);
	}
	const audience = `npm:${new URL(registry).hostname}`;
	const url = new URL(env.ACTIONS_ID_TOKEN_REQUEST_URL);
	url.searchParams.append('audience', audience);
	const github = await fetch(url, {
		headers: {
			Accept: 'application/json',
			Authorization: `Bearer ${env.ACTIONS_ID_TOKEN_REQUEST_TOKEN}`,
		},
	}).catch((error) =>
		fail(`GitHub's id-token service did not answer (${error.message}); run the workflow again`),
	);
	const idToken = github.ok ? (await github.json().catch(() => ({}))).value : undefined;
	if (!idToken)
		fail(
			`GitHub gave no id-token for ${audience} (HTTP ${github.status}); check "permissions: id-token: write" in ${PUBLISH_WORKFLOW}`,
		);
	const exchange = new URL(
		`-/npm/v1/oidc/token/exchange/package/${manifest.name.replace('/', '%2f')}`,
		registry.endsWith('/') ? registry : `${registry}/`,
	);
	const answer = await fetch(exchange, {
		method: 'POST',
		headers: { Accept: 'application/json', Authorization: `Bearer ${idToken}` },
	}).catch((error) =>
		fail(`${exchange.origin} did not answer (${error.message}); run the workflow again`),
	);
	const body = await answer.json().catch(() => ({}));
	if (answer.ok && body.token) return body.token;
	const said = body.message ?? body.error ?? 'no message';
	const repository = env.GITHUB_REPOSITORY ?? '<owner>/<repository>';
	fail(
		`npm answered the token exchange with HTTP ${answer.status} ("${said}"). ` +
			(answer.status === 404
				? `Either ${manifest.name} is not on npm yet (publish the bootstrap first: CONTRIBUTING.md, "The first publish") or its trusted publisher does not match this run: `
				: 'Check the trusted publisher: ') +
			`npmjs.com, the package's Settings, Trusted Publisher, GitHub Actions, must name ${repository} exactly (case included), ` +
			`workflow filename ${path.basename(PUBLISH_WORKFLOW)} and no environment, and allow npm publish. Then delete the tag and push it again.`,
	);
}

function run(command, args, env = process.env) {
	console.log(`[release] ${command} ${args.join(' ')}`);
	const result = spawnSync(command, args, { cwd: REPO, stdio: 'inherit', env });
	if (result.status !== 0) {
		console.error(
			`[release] ${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal})`,
		);
		process.exit(result.status ?? 1);
	}
}

async function main() {
	const { values } = parseArgs({
		options: {
			check: { type: 'boolean' },
			'dry-run': { type: 'boolean' },
			prepare: { type: 'boolean' },
			bootstrap: { type: 'boolean' },
			built: { type: 'boolean' },
			rehearse: { type: 'boolean' },
			author: { type: 'string' },
			repository: { type: 'string' },
			package: { type: 'string' },
		},
	});
	const file = path.resolve(values.package ?? path.join(REPO, 'package.json'));
	if (values.prepare) {
		const manifest = prepare(file, values);
		console.log(
			`[release] ${path.relative(process.cwd(), file) || file}: author, homepage, repository.url for ${manifest.repository.url}, "strict": true; eslint.config.mjs: n8n's default`,
		);
		return;
	}
	const manifest = JSON.parse(fs.readFileSync(file, 'utf8'));
	const dryRun = values['dry-run'] === true;
	if (values.bootstrap) {
		const url =
			typeof manifest.repository === 'string' ? manifest.repository : manifest.repository?.url;
		if (!/^(?:git\+)?https:\/\/github\.com\//.test(url ?? '')) {
			console.error(
				'[release] --bootstrap needs package.json "repository.url" first: `npm run release -- --prepare --author "Name <e-mail>" --repository <owner>/<repository>`',
			);
			process.exit(1);
		}
		if (!dryRun) console.log('[release] npm asks for your 2FA code');
		try {
			bootstrap(path.dirname(file), { dryRun, built: values.built === true });
		} catch (error) {
			console.error(`[release] ${error.message}`);
			process.exit(1);
		}
		if (!dryRun) {
			console.log(
				`[release] published ${manifest.name}@${BOOTSTRAP_VERSION}. Next: set the trusted publisher on npmjs.com (CONTRIBUTING.md, "The first publish"), then push the tag v${manifest.version}`,
			);
		}
		return;
	}
	if (values.rehearse) {
		const { rehearse } = await import('./rehearse.mjs');
		await rehearse();
		return;
	}
	const publishing = !values.check && !dryRun;
	const npmVersion = publishing
		? spawnSync('npm', ['--version'], { encoding: 'utf8' }).stdout?.trim()
		: undefined;
	const problems = releaseProblems(manifest, process.env, {
		dir: path.dirname(file),
		rehearsal: dryRun,
		publishing,
		npmVersion,
	});
	if (problems.length) {
		console.error(
			`[release] not ready to publish ${manifest.name}@${manifest.version}:\n${problems.map((p) => `  - ${p}`).join('\n')}`,
		);
		if (problems.some((p) => p.includes('--prepare below'))) {
			console.error(
				'[release] --prepare: `npm run release -- --prepare --author "Name <e-mail>" --repository <owner>/<repository>` fills the publisher\'s fields, sets "strict": true and writes n8n\'s default eslint.config.mjs',
			);
		}
		process.exit(1);
	}
	if (values.check) {
		console.log(
			`[release] ${manifest.name}@${manifest.version} is ready to publish (from ${PUBLISH_WORKFLOW}, on the tag v${manifest.version}) as far as this repository shows.`,
		);
		console.log(`[release] Not seen from here: ${unseen(manifest)}`);
		return;
	}
	// STORA_RELEASE tells scripts/publishGuard.mjs (npm's prepack) that this run, not a hand-run npm publish, packs.
	const env = { ...process.env, STORA_RELEASE: dryRun ? 'dry-run' : 'publish' };
	if (publishing) {
		const registry = spawnSync('npm', ['config', 'get', 'registry'], {
			cwd: REPO,
			encoding: 'utf8',
		}).stdout.trim();
		try {
			// setup-node's .npmrc reads NODE_AUTH_TOKEN: npm publishes with this token even where its own exchange fails.
			env.NODE_AUTH_TOKEN = await trustedPublishingToken(manifest, registry);
		} catch (error) {
			console.error(
				`${process.env.GITHUB_ACTIONS === 'true' ? '::error title=npm trusted publishing::' : '[release] '}${error.message}`,
			);
			process.exit(1);
		}
		console.log(
			`[release] npm's trusted publishing: ${registry} gave ${manifest.name} a publish token for this run`,
		);
	}
	run('npm', ['run', 'build']);
	run('npm', ['run', 'lint']);
	run('npm', ['run', 'scan']);
	run(
		'npm',
		['publish', '--provenance', '--access', 'public', ...(dryRun ? ['--dry-run'] : [])],
		env,
	);
	if (dryRun)
		console.log(
			`[release] rehearsal passed: ${manifest.name}@${manifest.version} would be published (npm publish --dry-run)`,
		);
}

// Not a top-level await: scripts/rehearse.mjs imports this module while main() runs.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	main().catch((error) => {
		console.error(`[release] ${error.stack ?? error}`);
		process.exit(1);
	});
}
