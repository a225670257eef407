// The processes the npm scripts start and stop, read from /proc (Linux): whether a PID lives, a process's parent, group
// and start time, its descendants, what a process tree has read and the CPU it used, a set of processes remembered by
// PID and start time (so a reused PID is not taken for one of them), and noticing when this process's parent (or npm)
// ends. Plain Node ESM with built-ins only, runnable by Node 20, like toolchain.mjs, which takes its install locks
// with these.
import fs from 'node:fs';

/** Whether a process with this PID exists. */
export function alive(pid) {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return error.code === 'EPERM';
	}
}

/**
 * Parent PID, process group and start time (clock ticks since boot: with the PID, it names one process even after the
 * PID is reused) of `pid` from /proc (Linux), or undefined when it is gone.
 */
export function processInfo(pid) {
	try {
		// The command name (in parentheses) may hold spaces: the fields after it are counted from its end.
		const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		return { ppid: Number(fields[1]), pgid: Number(fields[2]), start: fields[19] };
	} catch {
		return undefined;
	}
}

/** Every living descendant of `pid` (children, their children, ...), read from /proc; empty where there is none. */
export function descendants(pid) {
	const children = new Map();
	let entries = [];
	try {
		entries = fs.readdirSync('/proc');
	} catch {
		return [];
	}
	for (const entry of entries) {
		if (!/^\d+$/.test(entry)) continue;
		const info = processInfo(Number(entry));
		if (!info) continue;
		if (!children.has(info.ppid)) children.set(info.ppid, []);
		children.get(info.ppid).push(Number(entry));
	}
	const found = [];
	const walk = (parent) => {
		for (const child of children.get(parent) ?? []) {
			found.push(child);
			walk(child);
		}
	};
	walk(pid);
	return found;
}

/**
 * Remembers processes by PID and start time, so that a PID reused by another process later is not taken for one of
 * them: `running()` lists those still running, `signal(name)` signals them (each process group leader with its group).
 */
export function processSet(pids = []) {
	const known = new Map();
	const add = (pid) => {
		const info = processInfo(pid);
		if (info && !known.has(pid)) known.set(pid, info.start);
	};
	pids.forEach(add);
	const running = () =>
		[...known].filter(([pid, start]) => processInfo(pid)?.start === start).map(([pid]) => pid);
	const signal = (name) => {
		for (const pid of running()) {
			try {
				process.kill(processInfo(pid)?.pgid === pid ? -pid : pid, name);
			} catch {
				// gone meanwhile
			}
		}
	};
	return { add, running, signal, size: () => known.size };
}

/**
 * Calls `onGone` once when this process's parent ends (it is then adopted by another, so `process.ppid` changes) or,
 * with `npmScript` (this process is an npm script's command), when npm ends. npm runs a script through `sh -c`, and
 * on SIGTERM npm signals only that shell, which dies without passing the signal on: without this the script would
 * run on with nobody to stop it.
 */
export function onParentGone(onGone, { npmScript = false, intervalMs = 500 } = {}) {
	const parent = process.ppid;
	const npm = npmScript && process.env.npm_lifecycle_event ? processInfo(parent)?.ppid : undefined;
	const timer = setInterval(() => {
		if (process.ppid !== parent || (npm && !alive(npm))) {
			clearInterval(timer);
			onGone();
		}
	}, intervalMs);
	timer.unref();
	return () => clearInterval(timer);
}

/**
 * The bytes `pid` and the processes under it have read so far (files and network alike), where /proc says (Linux):
 * npm fetches every package before it unpacks most of them, and this is what moves meanwhile.
 */
export function bytesRead(pid) {
	let total;
	for (const each of [pid, ...descendants(pid)]) {
		try {
			const rchar = /^rchar: (\d+)$/m.exec(fs.readFileSync(`/proc/${each}/io`, 'utf8'))?.[1];
			if (rchar !== undefined) total = (total ?? 0) + Number(rchar);
		} catch {
			// not Linux, or the process ended meanwhile
		}
	}
	return total;
}

/**
 * The CPU time `pid` and the processes under it have used (their own and that of children they waited for), where
 * /proc says (Linux): it grows while npm resolves its tree or the compiler works on one large file, when nothing
 * else shows that they are busy.
 */
export function cpuSeconds(pid) {
	let ticks;
	for (const each of [pid, ...descendants(pid)]) {
		try {
			const stat = fs.readFileSync(`/proc/${each}/stat`, 'utf8');
			// utime, stime, cutime, cstime: fields 14 to 17, counted after the command name (in parentheses).
			const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			ticks = (ticks ?? 0) + fields.slice(11, 15).reduce((sum, field) => sum + Number(field), 0);
		} catch {
			// not Linux, or the process ended meanwhile
		}
	}
	// Linux reports these in clock ticks of 1/100 s (USER_HZ) on every architecture Node supports.
	return ticks === undefined ? undefined : ticks / 100;
}
