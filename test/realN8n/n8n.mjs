// Real n8n for the suites that run the package inside it (e2e, queue mode, bench, `npm start`): one import for all
// of it, kept so those imports stay short; each concern lives in its own file:
// - basics.mjs: the n8n under test, its folders, the owner, the Node each process runs on, log/freePort/run;
// - install.mjs: n8n installed into .cache/ from its settled lockfile, sqlite3 built once;
// - pack.mjs: this package built, packed and installed into a user folder as a user installs it;
// - start.mjs: `n8n start` on free loopback ports with a throw-away user folder, the owner set up;
// - client.mjs: the running n8n, its REST calls, stopped by its PID;
// - wait.mjs: sleep and until.
// Every process is stopped by its PID.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { seconds } from '../../scripts/toolchain.mjs';
import { log, OWNER } from './basics.mjs';
import { ensureN8n } from './install.mjs';
import { packPackage } from './pack.mjs';
import { startN8n } from './start.mjs';

export { REPO, seconds } from '../../scripts/toolchain.mjs';
export {
	childEnv,
	freePort,
	HOST_DIR,
	HOST_TEMPLATE,
	log,
	N8N_VERSION,
	n8nNode,
	node24,
	OWNER,
	PACKAGE_NAME,
	randomId,
	requireFromN8n,
	run,
	VERSION,
} from './basics.mjs';
export { N8n } from './client.mjs';
export { ensureN8n, SQLITE3_VERSION } from './install.mjs';
export { installPackage, packPackage } from './pack.mjs';
export { n8nTestSettings, startN8n } from './start.mjs';
export { sleep } from './wait.mjs';

// `node test/realN8n/n8n.mjs install` installs n8n; `node test/realN8n/n8n.mjs start` also packs, starts and waits (Ctrl-C stops).
if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
	const command = process.argv[2] ?? 'install';
	const started = Date.now();
	const timings = await ensureN8n();
	log(
		'install timings',
		Object.fromEntries(Object.entries(timings).map(([k, v]) => [k, seconds(v)])),
		`total ${seconds(Date.now() - started)}`,
	);
	if (command === 'start') {
		const packDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stora-pack-'));
		let n8n;
		// Before starting: a Ctrl-C while n8n starts ends here too (process.exit lets start.mjs stop what it started).
		const stop = async () => {
			await n8n?.stop();
			fs.rmSync(packDir, { recursive: true, force: true });
			process.exit(0);
		};
		process.on('SIGINT', stop);
		process.on('SIGTERM', stop);
		const { tarball } = packPackage(packDir);
		n8n = await startN8n({ tarball });
		log(
			`n8n ready in ${seconds(n8n.timings.ready)} at ${n8n.base} (login ${OWNER.email} / ${OWNER.password}); Ctrl-C stops it`,
		);
	}
}
