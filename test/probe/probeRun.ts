/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test under test/, never published */
/**
 * Runs `npm run probe` (scripts/probe/cli.mjs) as its own process against a sandbox started in this one, the way a
 * user runs it: base URL and token in the environment, the report read back from a fresh folder.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const ROOT = path.join(__dirname, '../..');
export const CLI = path.join(ROOT, 'scripts/probe/cli.mjs');

export interface Point {
	id: string;
	verdict: string;
	evidence: string;
	where: string;
}

export interface ProbeRun {
	code: number | null;
	stdout: string;
	stderr: string;
	md: string;
	jsonText: string;
	json: { probe: Record<string, unknown>; points: Point[] };
	/** Verdict by point id. */
	verdicts: Map<string, string>;
	point(id: string): Point;
}

/**
 * Spawns the probe (never spawnSync: the sandbox answering it lives in this process). `input`: on a terminal, a
 * pseudo-terminal (util-linux `script`), where `answer` is typed once the probe asks (null: the end of input,
 * Ctrl-D), its stdout and stderr then one stream, in `stdout`; else `answer` is piped to its stdin.
 */
export async function runProbe(
	baseUrl: string,
	token: string,
	args: string[] = [],
	env: Record<string, string> = {},
	input?: { terminal: boolean; answer: string | null },
): Promise<ProbeRun> {
	const out = await mkdtemp(path.join(os.tmpdir(), 'stora-probe-'));
	try {
		const argv = [CLI, '--out', out, ...args];
		const childEnv = { ...process.env, STORA_BASE_URL: baseUrl, STORA_ACCESS_TOKEN: token, ...env };
		const command = [process.execPath, ...argv]
			.map((word) => `'${word.replace(/'/g, "'\\''")}'`)
			.join(' ');
		const child = input?.terminal
			? spawn('script', ['--quiet', '--return', '--command', command, '/dev/null'], {
					cwd: ROOT,
					env: childEnv,
					stdio: 'pipe',
				})
			: spawn(process.execPath, argv, {
					cwd: ROOT,
					env: childEnv,
					stdio: [input ? 'pipe' : 'ignore', 'pipe', 'pipe'],
				});
		if (input && !input.terminal) child.stdin!.end(input.answer ?? '');
		let stdout = '';
		let stderr = '';
		let typed = false;
		child.stdout!.on('data', (chunk: Buffer) => {
			stdout += chunk.toString();
			if (!input?.terminal || typed || !stdout.includes('Type yes: ')) return;
			typed = true;
			child.stdin!.write(input.answer === null ? '\x04' : `${input.answer}\r`);
		});
		child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
		const read = async (name: string) =>
			await readFile(path.join(out, name), 'utf8').catch(() => '');
		const [md, jsonText] = await Promise.all([read('probe-report.md'), read('probe-report.json')]);
		const json = jsonText ? (JSON.parse(jsonText) as ProbeRun['json']) : { probe: {}, points: [] };
		const verdicts = new Map(json.points.map((entry) => [entry.id, entry.verdict]));
		return {
			code,
			stdout,
			stderr,
			md,
			jsonText,
			json,
			verdicts,
			point: (id) => {
				const found = json.points.find((entry) => entry.id === id);
				if (!found) throw new Error(`no point ${id}`);
				return found;
			},
		};
	} finally {
		await rm(out, { recursive: true, force: true });
	}
}

export interface ProbeList {
	path: string;
	resource: string;
	scope: string;
	filters: string[];
	sortBy: string[];
	expand?: string[] | null;
	cursor?: false;
	documented: string[];
	/** parametersOf(list): every parameter the probe asks about. */
	parameters: string[];
}

/** The probe's list table (scripts/probe/lists.mjs, an ES module jest cannot load), read through a node process. */
export function probeTable(): ProbeList[] {
	const url = pathToFileURL(path.join(ROOT, 'scripts/probe/lists.mjs')).href;
	const script = `import(${JSON.stringify(url)}).then((m) => process.stdout.write(JSON.stringify(m.LISTS.map((l) => ({ ...l, parameters: m.parametersOf(l) })))))`;
	return JSON.parse(
		execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }),
	) as ProbeList[];
}

/** Every place a run could leak `secret`: its output and both report files. */
export function leaks(run: ProbeRun, secret: string): string[] {
	return (['stdout', 'stderr', 'md', 'jsonText'] as const).filter((name) =>
		run[name].includes(secret),
	);
}

/** A call to the sandbox's control plane (`/__sandbox/...`), its JSON answer. */
export async function control(
	sandbox: { url: string },
	method: string,
	path: string,
	body?: unknown,
) {
	const response = await fetch(`${sandbox.url}/__sandbox${path}`, {
		method,
		headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	return (await response.json()) as Record<string, Array<Record<string, unknown>>>;
}

/** A free loopback port (the OS picks it), for the probe's webhook receiver. */
export async function freePort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as { port: number };
	await new Promise<void>((resolve) => server.close(() => resolve()));
	return port;
}
