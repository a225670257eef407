/**
 * The time zone of the whole test process (n8n, the sandbox, the test), set and restored by the time-zone suites
 * (test/nodes/helpers/dateTime.test.ts).
 */

/**
 * The process's real environment. Jest hands each test file a copy of `process.env`, and Node re-reads TZ only when the
 * real one is assigned: the real `process` is the one of the realm Node's own `Buffer` comes from.
 */
export const realEnv = (Buffer.constructor('return process')() as NodeJS.Process).env;

/** Sets the time zone of the whole process (n8n, the sandbox, this test), or restores it with `undefined`. */
export function setProcessZone(zone: string | undefined) {
	if (zone === undefined) delete realEnv.TZ;
	else realEnv.TZ = zone;
}

/** Runs `body` with the n8n process in time zone `zone`, restoring it after. */
export async function inProcessZone<T>(zone: string, body: () => Promise<T>): Promise<T> {
	const before = realEnv.TZ;
	setProcessZone(zone);
	try {
		return await body();
	} finally {
		setProcessZone(before);
	}
}
