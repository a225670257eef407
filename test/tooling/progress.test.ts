/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test under test/, never published */
/**
 * The progress lines of a first `npm start`: what they say of an npm install and of the sqlite3 build is true at
 * every step. The scripts are plain ESM, run here by Node as the npm scripts run them.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = join(__dirname, '..', '..');

/** Calls `name` of the ESM module `file` with `args` in a Node process of its own; returns what it returned. */
function call(file: string, name: string, args: unknown[]): unknown {
	const module = pathToFileURL(join(ROOT, file)).href;
	const script = `const m = await import(${JSON.stringify(module)}); console.log(JSON.stringify(await m[${JSON.stringify(name)}](...${JSON.stringify(args)})));`;
	return JSON.parse(
		execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })
			.trim()
			.split('\n')
			.at(-1)!,
	);
}

/** make's lines as node-gyp prints them while it builds sqlite3 5.1.7 (its order: a helper library, SQLite, the addon). */
const MAKE = [
	'gyp info spawn make',
	"make: Entering directory '/tmp/stora-sqlite3-x/node_modules/sqlite3/build'",
	'  CC(target) Release/obj.target/nothing/../node-addon-api/nothing.o',
	'  AR(target) Release/obj.target/../node-addon-api/nothing.a',
	'  COPY Release/nothing.a',
	'  ACTION deps_sqlite3_gyp_action_before_build_target_unpack_sqlite_dep Release/obj/gen/sqlite-autoconf-3440200/sqlite3.c',
	'  TOUCH Release/obj.target/deps/action_before_build.stamp',
	'  CC(target) Release/obj.target/sqlite3/gen/sqlite-autoconf-3440200/sqlite3.o',
	'  CXX(target) Release/obj.target/node_sqlite3/src/backup.o',
	'  CXX(target) Release/obj.target/node_sqlite3/src/database.o',
	'  SOLINK_MODULE(target) Release/obj.target/node_sqlite3.node',
];

describe('setup progress lines', () => {
	let scratch: string;
	beforeAll(() => {
		scratch = mkdtempSync(join(tmpdir(), 'stora-progress-'));
	});
	afterAll(() => rmSync(scratch, { recursive: true, force: true }));

	it('the sqlite3 build names the file being compiled, counting only those finished before it', () => {
		const log = join(scratch, 'install.log');
		// What the log held before the build (the npm install's output) is not read.
		const before = '  CC(target) something/else.o\n';
		const seen = [];
		for (let lines = 1; lines <= MAKE.length; lines++) {
			writeFileSync(log, `${before}${MAKE.slice(0, lines).join('\n')}\n`);
			seen.push(call('test/realN8n/install.mjs', 'buildStep', [log, before.length]));
		}
		expect([...new Set(seen)]).toEqual([
			'configuring the build (node-gyp)',
			'compiling nothing.c (0 files compiled before it)',
			"unpacking SQLite's source",
			'compiling sqlite3.c, SQLite itself and most of the build (1 file compiled before it)',
			'compiling backup.cc (2 files compiled before it)',
			'compiling database.cc (3 files compiled before it)',
			'linking node_sqlite3.node',
		]);
	});

	it('an npm install counts the packages of its lockfile that npm installs on this platform', () => {
		const dir = join(scratch, 'host');
		const other = process.platform === 'linux' ? 'darwin' : 'linux';
		const lock = {
			packages: {
				'': { name: 'host' },
				'node_modules/a': { version: '1.0.0' },
				'node_modules/b': { version: '1.0.0' },
				'node_modules/only-elsewhere': { version: '1.0.0', os: [other] },
				'node_modules/not-here': { version: '1.0.0', os: [`!${process.platform}`] },
				'node_modules/other-cpu': {
					version: '1.0.0',
					cpu: [process.arch === 'x64' ? 'arm64' : 'x64'],
				},
			},
		};
		mkdirSync(join(dir, 'node_modules', 'a'), { recursive: true });
		writeFileSync(join(dir, 'package-lock.json'), JSON.stringify(lock));
		writeFileSync(join(dir, 'node_modules', 'a', 'package.json'), '{}');
		expect(call('scripts/toolchain.mjs', 'installedCount', [dir])).toBe('1 of 2 packages unpacked');
	});

	it('a heartbeat counts the CPU a process and those under it have used, so a busy step shows that it works', async () => {
		// A shell whose child burns 0.3 s of CPU (counted by its own clock, not the wall's), then waits.
		const burn =
			'const t = process.cpuUsage(); while (process.cpuUsage(t).user + process.cpuUsage(t).system < 300000); console.log("busy"); setInterval(() => {}, 1000);';
		const shell = spawn('sh', ['-c', `${JSON.stringify(process.execPath)} -e '${burn}'`], {
			stdio: ['ignore', 'pipe', 'inherit'],
			detached: true,
		});
		try {
			await new Promise<void>((resolve) =>
				shell.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('busy') && resolve()),
			);
			expect(call('scripts/processes.mjs', 'cpuSeconds', [shell.pid])).toBeGreaterThanOrEqual(0.3);
		} finally {
			process.kill(-shell.pid!, 'SIGKILL');
		}
	});
});
