// Waiting for the executions a real n8n runs in its own time (a poll, a delivery), for every real-n8n suite.
import { until } from './wait.mjs';

/** The statuses of an execution n8n has not finished yet. */
export const UNFINISHED = ['running', 'new', 'waiting'];

/**
 * Waits until workflow `workflowId` has at least `count` executions, all finished; returns them decoded (with their
 * data), oldest first. Throws after `timeoutMs`.
 */
export async function finishedExecutions(n8n, workflowId, count, { timeoutMs = 150_000 } = {}) {
	const summaries = await until(
		async () => {
			const all = await n8n.allExecutions(workflowId);
			return all.length >= count && all.every((e) => !UNFINISHED.includes(e.status)) && all;
		},
		`${count} finished executions of workflow ${workflowId}`,
		{ timeoutMs, every: 1000 },
	);
	return await Promise.all(summaries.reverse().map((e) => n8n.execution(e.id)));
}
