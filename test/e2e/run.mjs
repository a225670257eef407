// End-to-end tests: this package inside a real n8n, talking to the Stora sandbox. The n8n is the newest supported one,
// or the one E2E_N8N_VERSION names (test/realN8n/versions.mjs; `npm run test:versions` runs every supported one).
//
//   npm run test:e2e [-- options]
//     --only <text>          run only the workflow cases and examples whose file name or title contains <text>; `--only
//                            n8n-contract` runs only the checks of contract.mjs (and their Chromium step); `--only
//                            stora-trigger` only the Stora Trigger's (checks/trigger.mjs, forged.mjs and the examples
//                            with a Stora Trigger); `--only builder` what n8n's AI workflow builder reads
//                            (checks/builderHints.mjs)
//     --no-browser           skip the Chromium parts (OAuth2 authorization code flow, editor checks); they run only
//                            against the newest n8n anyway
//     --screenshots <dir>    where the editor screenshots go (default: .cache/e2e-artifacts; use docs/screenshots
//                            to refresh the committed ones)
//     --keep                 leave n8n and the sandbox running at the end (Ctrl-C stops them)
//
// Steps: install n8n (cached in .cache/), compile the sandbox, build + `npm pack` this package and install the
// tarball into a throw-away n8n user folder, start the sandbox and n8n, create credentials over n8n's REST API, then
// run every workflow in test/e2e/workflows/ through a production webhook and compare the answer with its `expect`
// block, check OAuth2 (client credentials; authorization code with PKCE in Chromium) and the editor. Ends with
// "N passed, N failed"; exits 1 on any failure. Everything it starts is stopped by PID, also on Ctrl-C.
// The checks live in checks/*.mjs, browser/*.mjs and the files next to this one; this file starts what they need and
// runs them in order.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { assert, checkLines, createHarness } from '../realN8n/harness.mjs';
import {
	ensureN8n,
	log,
	N8N_VERSION,
	packPackage,
	REPO,
	run,
	startN8n,
	VERSION,
} from '../realN8n/n8n.mjs';
import { buildSandbox, startSandbox } from '../realN8n/sandbox.mjs';
import { assertMatch } from './expect.mjs';
import { edgeChecks } from './edges.mjs';
import { customApiCallChecks } from './customApiCall.mjs';
import { CONTRACT_ONLY, contractChecks } from './contract.mjs';
import { aiToolChecks } from './checks/aiTools.mjs';
import { builderHintChecks } from './checks/builderHints.mjs';
import { credentialChecks } from './checks/credentials.mjs';
import { exampleChecks } from './checks/examples.mjs';
import { forgedChecks } from './checks/forged.mjs';
import { knownBugChecks } from './checks/knownBugs.mjs';
import { authorizationCodeChecks, clientCredentialsChecks } from './checks/oauth2.mjs';
import { packageChecks } from './checks/package.mjs';
import { rememberSecrets, secretsChecks } from './checks/secrets.mjs';
import { TRIGGER_ONLY, triggerChecks } from './checks/trigger.mjs';
import { workflowChecks } from './checks/workflows.mjs';

const { values: args } = parseArgs({
	options: {
		only: { type: 'string' },
		'no-browser': { type: 'boolean', default: false },
		screenshots: { type: 'string', default: path.join(REPO, '.cache/e2e-artifacts') },
		keep: { type: 'boolean', default: false },
	},
});

const {
	timings,
	cleanups,
	timed,
	check,
	run: runSuite,
} = createHarness('[e2e]', {
	report: checkLines,
	width: 58,
});

async function main() {
	const work = fs.mkdtempSync(path.join(os.tmpdir(), 'stora-e2e-'));
	cleanups.push(() => fs.rmSync(work, { recursive: true, force: true }));

	// Screenshots of this run only: old failure shots go; the default artifacts folder is emptied.
	const defaultArtifacts = path.join(REPO, '.cache/e2e-artifacts');
	if (fs.existsSync(args.screenshots)) {
		for (const f of fs.readdirSync(args.screenshots)) {
			if (
				f.endsWith('.png') &&
				(f.startsWith('failure-') || path.resolve(args.screenshots) === defaultArtifacts)
			) {
				fs.rmSync(path.join(args.screenshots, f));
			}
		}
	}

	// The Chromium parts run against the newest n8n only (versions.mjs, `browser`).
	const browser = !args['no-browser'] && VERSION.browser === true;
	log(`n8n ${N8N_VERSION} on Node ${VERSION.node}${browser ? '' : ', without the Chromium parts'}`);
	if (browser) {
		await timed('chromium (test/realN8n/setup.sh)', () =>
			run('bash', [path.join(REPO, 'test/realN8n/setup.sh')], { quiet: true }),
		);
	}
	const installTimings = await timed('n8n install (cached when unchanged)', () => ensureN8n());
	for (const [k, v] of Object.entries(installTimings)) timings.push([`  n8n install: ${k}`, v]);
	await timed('sandbox compile (tsc)', () => buildSandbox());
	const { tarball, timings: packTimings } = await timed('package build + npm pack', () =>
		packPackage(work),
	);
	for (const [k, v] of Object.entries(packTimings)) timings.push([`  package: ${k}`, v]);

	const sandbox = await timed('sandbox start', () =>
		startSandbox({
			seed: 'demo',
			// A plan above the documented 10/s and 60/min, announced in RateLimit-Policy: the node learns it from the
			// first answer, as it would a real account's (the documented limits are exercised by the jest suites).
			rateLimit: { perSecond: 20, perMinute: 1200 },
		}),
	);
	cleanups.push(() => sandbox.close());
	log(`sandbox at ${sandbox.url}`);

	const n8n = await timed('n8n start (fresh user folder, until REST ready + owner)', () =>
		startN8n({ tarball }),
	);
	cleanups.push(async () => {
		if (!args.keep) await n8n.stop({ keepFolder: process.exitCode === 1 && !!process.env.CI });
	});
	log(`n8n ${n8n.base} (user folder ${n8n.userFolder}, pid ${n8n.pid})`);

	// What every check may use; credentials, workflows (for the secrets check) and the case helpers fill in as it runs.
	const ctx = {
		n8n,
		sandbox,
		tarball,
		credentials: {},
		workflows: [],
		vars: { sandboxUrl: sandbox.url, n8nUrl: n8n.base },
		callback: `${n8n.base}/rest/oauth2-credential/callback`,
		only: args.only,
		screenshots: args.screenshots,
		version: VERSION,
		check,
		assert,
		assertMatch,
		cleanups,
	};
	const secrets = rememberSecrets(sandbox);

	await packageChecks(ctx);
	await credentialChecks(ctx);
	await knownBugChecks(ctx);
	await workflowChecks(ctx);
	await exampleChecks(ctx);
	if (!args.only) {
		await clientCredentialsChecks(ctx);
		await customApiCallChecks(ctx);
		await contractChecks(ctx);
		await triggerChecks(ctx);
		await forgedChecks(ctx);
		await edgeChecks(ctx);
	}
	if (args.only === TRIGGER_ONLY) {
		await triggerChecks(ctx);
		await forgedChecks(ctx);
	}
	if (args.only === CONTRACT_ONLY) {
		await contractChecks(ctx);
		if (browser) await (await import('./browser.mjs')).pickerChecks(ctx);
	}
	await aiToolChecks(ctx);
	await builderHintChecks(ctx);
	if (!args.only) {
		if (browser) await (await import('./browser.mjs')).browserChecks(ctx);
		else await authorizationCodeChecks(ctx);
		await (await import('./npmStart.mjs')).npmStartChecks(ctx);
	}
	await secretsChecks(ctx, secrets);

	if (args.keep) {
		console.log(
			`\n--keep: n8n ${n8n.base} (${'owner@example.com'}), sandbox ${sandbox.url}; Ctrl-C stops them`,
		);
		await new Promise(() => {});
	}
}

await runSuite(main);
