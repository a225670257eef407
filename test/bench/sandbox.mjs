// The Stora sandbox for the benchmark, in a process of its own (build/sandbox/cli.js, compiled by
// test/realN8n/sandbox.mjs's buildSandbox): the bench's own work (sampling /proc, reading executions, the bare fetch loop)
// then never delays an answer of the API, and a fresh process per case starts with fresh rate-limit windows. Seeding
// goes through the sandbox's control plane (POST /__sandbox/state/<collection>). Stopped by its PID.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import { freePort, node24, REPO, sleep } from '../realN8n/n8n.mjs';

const BUILD = path.join(REPO, 'build/sandbox');

function sandboxClient(url) {
	const entry = path.join(BUILD, 'client.js');
	if (!fs.existsSync(entry)) throw new Error(`${entry} is missing: buildSandbox() first`);
	const { SandboxClient } = createRequire(import.meta.url)(entry);
	return new SandboxClient(url);
}

/**
 * Waits until `child` prints a line matching `pattern` (its first group is resolved as `url`); resolves to
 * { url, match, pid, stop() }, stop() ending the child by its PID. Its output is never shown: the sandbox's holds a token.
 */
async function listening(child, pattern, what) {
	let output = '';
	let exited = false;
	child.stdout.on('data', (chunk) => (output += chunk));
	child.stderr.on('data', (chunk) => (output += chunk));
	child.on('exit', () => (exited = true));
	const stop = async () => {
		if (exited) return;
		const gone = new Promise((resolve) => child.once('exit', resolve));
		try {
			process.kill(child.pid, 'SIGTERM');
		} catch {
			return;
		}
		if (await Promise.race([gone.then(() => false), sleep(5000).then(() => true)])) {
			try {
				process.kill(child.pid, 'SIGKILL');
			} catch {
				// gone
			}
		}
	};
	const deadline = Date.now() + 30_000;
	for (;;) {
		const match = pattern.exec(output);
		if (match) return { url: match[1], match, pid: child.pid, stop };
		if (exited || Date.now() > deadline) {
			await stop();
			throw new Error(`${what} did not start (${exited ? `exit ${child.exitCode}` : 'timeout'})`);
		}
		await sleep(50);
	}
}

/**
 * Starts `cli.js` on a free port with Stora's documented rate-limit headers only (`RateLimit-Limit`, `RateLimit-Reset`):
 * what a client learns from the API is what Stora documents. `rateLimit`: 'off' or { perSecond, perMinute }. Resolves
 * to { url, token, control, pid, stop() }; the token is kept in memory only.
 */
export async function startSandboxProcess({
	rateLimit = 'off',
	latencyMs = 0,
	seed = 'demo',
} = {}) {
	const port = await freePort();
	const spec = rateLimit === 'off' ? 'off' : `${rateLimit.perSecond}/s,${rateLimit.perMinute}/min`;
	const args = [
		path.join(BUILD, 'cli.js'),
		...[
			'--port',
			String(port),
			'--seed',
			seed,
			'--rate-limit',
			spec,
			'--latency',
			String(latencyMs),
			'--headers',
			'documented',
		],
		'--allow-http-webhooks',
	];
	const child = spawn(node24(), args, { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
	const { match, pid, stop } = await listening(child, /Access token:\s+(\S+)/, 'the sandbox');
	const url = `http://127.0.0.1:${port}`;
	return { url, token: match[1], control: sandboxClient(url), pid, stop };
}

/**
 * Makes the `orders` collection hold exactly `count` orders: copies of the seed's first order, one second apart in
 * `created_at` (so a cursor on created_at never meets a page of equal timestamps), inserted in chunks.
 */
export async function seedOrders(control, count) {
	const existing = await control.state('orders');
	const [template] = existing;
	const missing = count - existing.length;
	const base = Date.parse('2020-01-01T00:00:00Z');
	const chunk = 2000;
	for (let from = 0; from < missing; from += chunk) {
		const records = [];
		for (let n = from; n < Math.min(missing, from + chunk); n++) {
			const at = new Date(base + n * 1000).toISOString().replace('.000Z', 'Z');
			const record = { ...template, created_at: at, updated_at: at };
			delete record.id;
			records.push(record);
		}
		await control.call('POST', '/__sandbox/state/orders', { records });
	}
	return existing.length + Math.max(0, missing);
}

/** Inserts `count` copies of the seed's first contact (own IDs and e-mail addresses); returns their IDs. */
export async function seedContacts(control, count) {
	const [template] = await control.state('contacts');
	const records = Array.from({ length: count }, (_, index) => ({
		...template,
		id: `con_bench${String(index).padStart(6, '0')}`,
		email: `bench.${index}@example.com`,
		use_case: 'refurb',
	}));
	const inserted = await control.insert('contacts', records);
	return inserted.map((contact) => contact.id);
}

/**
 * A generated list of `size` sites (sandbox/largeList.ts, compiled by buildSandbox) in a process of its own, for
 * lists the sandbox is too slow to page through (it filters all its records per request). It answers JSON and CSV, honours
 * the sort and the time filters, and checks no token. Resolves to { url, pid, stop() }.
 */
export async function startLargeListProcess({ size, latencyMs = 0 }) {
	const entry = path.join(BUILD, 'largeList.js');
	if (!fs.existsSync(entry)) throw new Error(`${entry} is missing: buildSandbox() first`);
	const script = `require(${JSON.stringify(entry)}).startLargeList(${JSON.stringify({ size, latencyMs })}).then((list) => console.log('listening ' + list.url))`;
	const child = spawn(node24(), ['-e', script], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
	return await listening(child, /listening (\S+)/, 'the large list');
}
