// Waiting for something a real n8n (or the sandbox, or a browser) does in its own time: one poller for every
// real-n8n suite, so each check states only what it waits for and how long it allows.

/** Resolves after `ms` milliseconds. */
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls the (async) `condition` every `every` ms until it returns a truthy value, and returns that value.
 * After `timeoutMs` it throws an Error naming `what` (a string, or a function returning one, asked only then) and
 * the timeout. `progress` (optional, async) describes how far it got: added to the error, and logged through `log`
 * every 10 s so a long wait shows it is moving.
 */
export async function until(
	condition,
	what,
	{ timeoutMs = 60_000, every = 250, progress, log } = {},
) {
	const deadline = Date.now() + timeoutMs;
	let lastReport = Date.now();
	const name = async () => (typeof what === 'function' ? await what() : what);
	for (;;) {
		const value = await condition();
		if (value) return value;
		if (Date.now() > deadline)
			throw new Error(
				`timed out after ${timeoutMs / 1000} s: ${await name()}${progress ? ` (${await progress()})` : ''}`,
			);
		if (progress && log && Date.now() - lastReport >= 10_000) {
			lastReport = Date.now();
			log(`  waiting for ${await name()}: ${await progress()}`);
		}
		await sleep(every);
	}
}
