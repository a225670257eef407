// An n8n process's memory, as scripts/triggerMemory.mjs reads it: the V8 heap after a full garbage collection (through
// n8n's inspector) and the resident memory of the process and its group.
import { groupPids, memory } from '../test/bench/proc.mjs';
import { until } from '../test/realN8n/wait.mjs';

/**
 * n8n's inspector (Chrome DevTools Protocol over a WebSocket): a full garbage collection and the V8 heap in use after
 * it. Reached on the loopback port n8n was started with; nothing else is asked of it.
 */
export async function inspector(port) {
	const [target] = await until(
		async () => {
			try {
				return await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
			} catch {
				return undefined;
			}
		},
		`n8n's inspector on port ${port}`,
		{ timeoutMs: 30_000 },
	);
	const socket = new WebSocket(target.webSocketDebuggerUrl);
	await new Promise((resolve, reject) => {
		socket.addEventListener('open', resolve, { once: true });
		socket.addEventListener(
			'error',
			() => reject(new Error("could not connect to n8n's inspector")),
			{ once: true },
		);
	});
	let nextId = 1;
	const waiting = new Map();
	socket.addEventListener('message', (message) => {
		const { id, result, error } = JSON.parse(String(message.data));
		const pending = waiting.get(id);
		if (!pending) return;
		waiting.delete(id);
		if (error) pending.reject(new Error(`inspector: ${error.message}`));
		else pending.resolve(result);
	});
	const call = (method, params = {}) =>
		new Promise((resolve, reject) => {
			const id = nextId++;
			waiting.set(id, { resolve, reject });
			socket.send(JSON.stringify({ id, method, params }));
		});
	return {
		async heapAfterGc() {
			await call('HeapProfiler.collectGarbage');
			return (await call('Runtime.getHeapUsage')).usedSize;
		},
		close: () => socket.close(),
	};
}

/** RSS of n8n's process and of its whole group (its task runner, when one runs), in bytes. */
export function rssOf(pid) {
	const main = memory(pid).rssKb * 1024;
	let group = 0;
	for (const member of groupPids(pid)) {
		try {
			group += memory(member).rssKb * 1024;
		} catch {
			// exited meanwhile
		}
	}
	return { main, group };
}
