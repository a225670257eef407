// One file of browser checks run on its own (`node test/e2e/browser/<file>.mjs`), with a sandbox, an n8n (the package
// packed from this checkout) and Chromium of its own, for working on those checks without the whole e2e run.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Whether the module at `moduleUrl` is the one node was started with. */
export const startedAlone = (moduleUrl) =>
	Boolean(process.argv[1]) && fileURLToPath(moduleUrl) === path.resolve(process.argv[1]);

/** Runs `checks(b)` (b: the session's page, check, shot, with n8n, sandbox and assert), then the console check. */
export async function runAlone(label, checks) {
	const { assert, checkLines, createHarness } = await import('../../realN8n/harness.mjs');
	const { packPackage, REPO, startN8n } = await import('../../realN8n/n8n.mjs');
	const { buildSandbox, startSandbox } = await import('../../realN8n/sandbox.mjs');
	const { chromiumSession, consoleCheck } = await import('./session.mjs');
	const harness = createHarness(`[${label}]`, { report: checkLines, width: 40 });
	await harness.run(async () => {
		const work = fs.mkdtempSync(path.join(os.tmpdir(), `stora-${label}-`));
		harness.cleanups.push(() => fs.rmSync(work, { recursive: true, force: true }));
		buildSandbox();
		const { tarball } = packPackage(work);
		const sandbox = await startSandbox({ seed: 'demo' });
		harness.cleanups.push(() => sandbox.close());
		const n8n = await startN8n({ tarball });
		harness.cleanups.push(() => n8n.stop());
		const screenshots = path.join(REPO, '.cache/e2e-artifacts');
		const session = await chromiumSession({
			n8n,
			check: harness.check,
			screenshots,
			cleanups: harness.cleanups,
		});
		if (!session) return;
		await checks({ ...session, n8n, sandbox, assert });
		await consoleCheck({ ...session, assert });
	});
}
