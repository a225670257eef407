// Check 1: every n8n process is up in queue mode on PostgreSQL and Redis with the packed package loaded, so the
// checks after it test queue mode and not a fallback.
import fs from 'node:fs';

import { assert } from '../../realN8n/harness.mjs';
import { STORA, STORA_TRIGGER } from '../../realN8n/workflow.mjs';

export const title = () =>
	'every process runs in queue mode on PostgreSQL and Redis, and loads the packed package';

export async function run({ main, pg, cluster }) {
	const nodeTypes = (await main.request('GET', '/types/nodes.json')).map((t) => t.name);
	for (const type of [STORA, STORA_TRIGGER])
		assert(nodeTypes.includes(type), `main did not register ${type}`);
	const tables = Number(
		pg.query(
			"select count(*) from information_schema.tables where table_name in ('execution_entity', 'workflow_entity', 'credentials_entity')",
		),
	);
	assert(tables === 3, `n8n's tables are not in PostgreSQL (${tables} of 3)`);
	for (const proc of cluster.all) {
		const text = fs.readFileSync(proc.logFile, 'utf8');
		assert(
			!/error.*n8n-nodes-stora|n8n-nodes-stora.*(error|failed)/i.test(text),
			`n8n ${proc.name} logged an error about the package`,
		);
	}
	for (const worker of cluster.workers) {
		const text = fs.readFileSync(worker.logFile, 'utf8');
		assert(
			/n8n worker is now ready|Worker .*ready/i.test(text) ||
				(await fetch(`${worker.base}/healthz/readiness`)).ok,
			`${worker.name} not ready`,
		);
	}
	const queueMode = await main.request('GET', '/rest/settings');
	assert(
		queueMode.executionMode === 'queue',
		`main reports execution mode ${queueMode.executionMode}`,
	);
}
