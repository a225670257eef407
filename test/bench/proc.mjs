// What the benchmark reads from /proc (Linux only): CPU time of a process group (n8n and its task runner share one,
// because test/realN8n/n8n.mjs starts n8n detached), resident memory, and the kernel's peak-RSS mark, which can be reset
// (`echo 5 > /proc/<pid>/clear_refs`) so the peak of one run can be read exactly.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

let ticksPerSecond;
function clockTicks() {
	if (ticksPerSecond === undefined) {
		try {
			ticksPerSecond =
				Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
		} catch {
			ticksPerSecond = 100;
		}
	}
	return ticksPerSecond;
}

/** Fields of /proc/<pid>/stat after the command name (which may hold spaces and parentheses). */
function statFields(pid) {
	const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
	return text.slice(text.lastIndexOf(')') + 2).split(' ');
}

/** PIDs of the live processes in process group `pgid`. */
export function groupPids(pgid) {
	const pids = [];
	for (const entry of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			if (Number(statFields(entry)[2]) === pgid) pids.push(Number(entry));
		} catch {
			// exited meanwhile
		}
	}
	return pids;
}

/** CPU time (user + system, ms) used so far by the processes of group `pgid` (n8n and its task runner). */
export function groupCpuMs(pgid) {
	let ticks = 0;
	for (const pid of groupPids(pgid)) {
		try {
			const fields = statFields(pid);
			// utime, stime are fields 14 and 15 of stat; index 11 and 12 after the command name.
			ticks += Number(fields[11]) + Number(fields[12]);
		} catch {
			// exited meanwhile
		}
	}
	return (ticks * 1000) / clockTicks();
}

/** VmRSS and VmHWM of one process, in KiB. */
export function memory(pid) {
	const text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
	const field = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? NaN);
	return { rssKb: field('VmRSS'), hwmKb: field('VmHWM') };
}

/** Resets the kernel's peak-RSS mark (VmHWM) of `pid` to its current RSS. False where that is not allowed. */
export function resetPeak(pid) {
	try {
		fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
		const { rssKb, hwmKb } = memory(pid);
		return hwmKb <= rssKb + 1024; // the mark really came down to (about) the current RSS
	} catch {
		return false;
	}
}

/**
 * Samples VmRSS of `pid` every `intervalMs` until `stop()`, which returns the highest value seen (KiB). A fallback
 * for when the peak mark cannot be reset, and a cross-check when it can.
 */
export function sampleRss(pid, intervalMs = 50) {
	let max = 0;
	const take = () => {
		try {
			max = Math.max(max, memory(pid).rssKb);
		} catch {
			// process gone
		}
	};
	take();
	const timer = setInterval(take, intervalMs);
	return {
		stop() {
			clearInterval(timer);
			take();
			return max;
		},
	};
}

/** Core count and CPU model of this machine, for the report. */
export function machine() {
	let model = '';
	try {
		model = /^model name\s*:\s*(.+)$/m.exec(fs.readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? '';
	} catch {
		// not Linux
	}
	return { model };
}

/** The 1-minute load average (how busy the shared machine was). */
export function loadAverage() {
	try {
		return Number(fs.readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
	} catch {
		return NaN;
	}
}
