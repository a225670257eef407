// The whole run at the end: no execution failed or ran twice, each was started by exactly one worker, the trigger
// workflows hold exactly the executions their deliveries started, and no secret of the run is in any n8n log.
import fs from 'node:fs';

import { assert } from '../../realN8n/harness.mjs';
import { collectSecrets } from '../../realN8n/secrets.mjs';
import {
	countBy,
	describeCounts,
	describeExecutions,
	executionRows,
	failedExecutionErrors,
	workersOf,
} from '../helpers.mjs';

export const title = () =>
	'at the end: no execution failed or ran twice, every one ran on exactly one worker, and no secret is in any n8n log';

export async function run(ctx) {
	const { sandbox, cluster, pg, secrets, trigger, dedupe, figure } = ctx;
	// The Stora Trigger workflows still have exactly the executions their deliveries started (none late, none extra).
	const counted = [];
	if (trigger?.events.length)
		counted.push([
			'the trigger workflow',
			trigger.workflow,
			trigger.events.length + (trigger.redelivered ?? 0),
		]);
	if (dedupe?.executions)
		counted.push(['the deal-lost-task example', dedupe.workflow, dedupe.executions]);
	for (const [label, workflow, expected] of counted) {
		const count = executionRows(ctx, workflow.id).length;
		if (count !== expected) {
			const ids = pg
				.query(
					`select id from execution_entity where "workflowId" = '${workflow.id}' order by id desc limit ${Math.max(1, count - expected)}`,
				)
				.split('\n');
			throw new Error(
				`${label} now has ${count} executions, expected ${expected}; the newest:\n${await describeExecutions(ctx, ids)}`,
			);
		}
	}
	const rows = pg
		.query(
			"select status || '/' || mode || '/' || coalesce(\"stoppedAt\"::text, 'running') from execution_entity",
		)
		.split('\n')
		.filter(Boolean);
	const statuses = countBy(rows.map((r) => r.split('/')[0]));
	if (!rows.length || statuses.get('success') !== rows.length) {
		const errors = await failedExecutionErrors(ctx).catch(
			(error) => `(errors not read: ${error.message})`,
		);
		assert(false, `executions in PostgreSQL: ${describeCounts(statuses)}\n${errors}`);
	}
	const ids = pg.query('select id from execution_entity').split('\n').filter(Boolean);
	const workers = countBy(workersOf(ctx, ids));
	collectSecrets(sandbox, secrets);
	const searched = [...secrets].filter((s) => typeof s === 'string' && s.length >= 16);
	for (const proc of cluster.all) {
		const text = fs.readFileSync(proc.logFile, 'utf8');
		const found = searched.filter((s) => text.includes(s)).length;
		assert(!found, `${found} secret(s) in the log of n8n ${proc.name}`);
	}
	figure(
		`${rows.length} executions in PostgreSQL, all success, each started by one worker (${describeCounts(workers)}); ${searched.length} secrets not in any of the ${cluster.all.length} n8n logs`,
	);
}
