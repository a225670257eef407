/**
 * What n8n answered a delivery, seen from the trigger. The trigger hands n8n the event and returns; n8n then stores
 * the execution and only after that answers (n8n 2.x defers an `onReceived` answer until the execution is stored, and
 * answers 500 when that fails). The status n8n gives the response when it ends it is therefore the one reliable word
 * on whether the execution exists. It is read from the response's `end`, not from its `finish` event: when Stora has
 * hung up first (past its delivery timeout, which its docs do not give), the response never finishes, but n8n still
 * ends it with its verdict.
 */
interface Answerable {
	statusCode: number;
	end: (...args: never[]) => unknown;
}

/**
 * Calls `settled(status)` once, with the status n8n ends `response` with. A process that dies before answering takes
 * the trigger's memory with it, so nothing is left to settle then.
 */
export function whenAnswered(response: unknown, settled: (status: number) => void): void {
	const res = response as Answerable;
	const end = res.end;
	let done = false;
	res.end = function (this: Answerable, ...args: never[]) {
		if (!done) {
			done = true;
			settled(res.statusCode);
		}
		return end.apply(this, args);
	} as Answerable['end'];
}
