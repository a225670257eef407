// PostgreSQL and Redis for the queue-mode test: Debian's packages (installed with apt-get when the binaries are
// missing), each started on a free loopback port with its data in a throw-away folder, and stopped by its PID.
// PostgreSQL refuses to run as root: initdb runs through `runuser -u postgres`, and the server is spawned with the
// postgres user's uid/gid directly (runuser would fork and stand between us and the postmaster's PID).
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { freePort } from '../realN8n/n8n.mjs';
import { sleep, until } from '../realN8n/wait.mjs';

const log = (...args) => console.log('[queue]', ...args);

function which(name) {
	for (const dir of (process.env.PATH ?? '').split(':').filter(Boolean)) {
		const file = path.join(dir, name);
		if (fs.existsSync(file)) return file;
	}
	return undefined;
}

/** The folder holding postgres, initdb and psql: on PATH, else Debian's /usr/lib/postgresql/<newest>/bin. */
function postgresBinDir() {
	const onPath = which('postgres');
	if (onPath && which('initdb')) {
		const dir = path.dirname(fs.realpathSync(onPath));
		if (fs.existsSync(path.join(dir, 'initdb')) && fs.existsSync(path.join(dir, 'psql')))
			return dir;
	}
	const root = '/usr/lib/postgresql';
	if (!fs.existsSync(root)) return undefined;
	const versions = fs
		.readdirSync(root)
		.filter(
			(v) =>
				fs.existsSync(path.join(root, v, 'bin', 'postgres')) &&
				fs.existsSync(path.join(root, v, 'bin', 'initdb')),
		)
		.sort((a, b) => Number(b) - Number(a));
	return versions.length ? path.join(root, versions[0], 'bin') : undefined;
}

function redisBin() {
	return (
		which('redis-server') ??
		(fs.existsSync('/usr/bin/redis-server') ? '/usr/bin/redis-server' : undefined)
	);
}

/** `apt-get install -y <packages>` (with one `apt-get update` when the first attempt fails). Needs root. */
function aptInstall(packages) {
	if (process.getuid?.() !== 0)
		throw new Error(
			`${packages.join(' and ')} missing, and installing them needs root: apt-get install -y ${packages.join(' ')}`,
		);
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	const install = () =>
		spawnSync('apt-get', ['install', '-y', '--no-install-recommends', ...packages], {
			env,
			encoding: 'utf8',
		});
	const started = Date.now();
	log(`installing ${packages.join(', ')} with apt-get`);
	let result = install();
	if (result.status !== 0) {
		spawnSync('apt-get', ['update'], { env, encoding: 'utf8' });
		result = install();
	}
	if (result.status !== 0)
		throw new Error(
			`apt-get install ${packages.join(' ')} failed:\n${`${result.stdout}${result.stderr}`.split('\n').slice(-20).join('\n')}`,
		);
	log(`apt-get install ${packages.join(' ')}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** Installs what is missing; returns { pgBin, redisServer }. */
export function ensureServices() {
	const missing = [];
	if (!postgresBinDir()) missing.push('postgresql');
	if (!redisBin()) missing.push('redis-server');
	if (missing.length) aptInstall(missing);
	const pgBin = postgresBinDir();
	const redisServer = redisBin();
	if (!pgBin)
		throw new Error(
			'postgresql installed, but no postgres/initdb binaries found under /usr/lib/postgresql',
		);
	if (!redisServer) throw new Error('redis-server installed, but not found');
	return { pgBin, redisServer };
}

/** A process we started, stopped by its PID (SIGTERM or the given signal, then SIGKILL of its group). */
class Service {
	constructor(name, child, logFile) {
		Object.assign(this, { name, child, logFile, pid: child.pid, exited: false });
		this.gone = new Promise((resolve) => {
			child.on('exit', (code, signal) => {
				this.exited = true;
				this.exitCode = code ?? signal;
				resolve();
			});
		});
	}

	logTail(lines = 30) {
		return fs.existsSync(this.logFile)
			? fs.readFileSync(this.logFile, 'utf8').split('\n').slice(-lines).join('\n')
			: '';
	}

	async stop(signal = 'SIGTERM') {
		if (!this.exited) {
			try {
				process.kill(this.pid, signal);
			} catch {
				// already gone
			}
			const timedOut = await Promise.race([
				this.gone.then(() => false),
				sleep(20_000).then(() => true),
			]);
			if (timedOut) {
				try {
					process.kill(-this.pid, 'SIGKILL');
				} catch {
					// already gone
				}
				await Promise.race([this.gone, sleep(5000)]);
			}
		}
		try {
			process.kill(-this.pid, 0);
			process.kill(-this.pid, 'SIGKILL');
		} catch {
			// group is empty
		}
	}
}

async function waitFor(what, probe, service, timeoutMs = 60_000) {
	await until(
		async () => {
			if (service.exited)
				throw new Error(
					`${what} exited (${service.exitCode}) before it was ready:\n${service.logTail()}`,
				);
			return await probe();
		},
		() => `${what} to be ready:\n${service.logTail()}`,
		{ timeoutMs, every: 100 },
	);
}

/**
 * PostgreSQL on a free loopback port: a fresh cluster (owner `n8n`, random password, scram-sha-256) in a temporary
 * folder owned by the postgres user, and a database `n8n`. Resolves to { host, port, database, user, password,
 * stop() }; stop() ends the server by its PID (fast shutdown) and removes the folder.
 */
export async function startPostgres(pgBin) {
	const { uid, gid } = userIds('postgres');
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stora-queue-pg-'));
	const remove = () => fs.rmSync(dir, { recursive: true, force: true });
	try {
		const data = path.join(dir, 'data');
		const password = randomBytes(18).toString('base64url');
		const pwfile = path.join(dir, 'pw');
		fs.writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
		fs.mkdirSync(path.join(dir, 'socket'));
		for (const entry of [dir, pwfile, path.join(dir, 'socket')]) fs.chownSync(entry, uid, gid);
		const init = spawnSync(
			'runuser',
			[
				'-u',
				'postgres',
				'--',
				path.join(pgBin, 'initdb'),
				'-D',
				data,
				'--username=n8n',
				`--pwfile=${pwfile}`,
				'--auth=scram-sha-256',
				'--encoding=UTF8',
				'--locale=C',
				'--no-sync',
			],
			{ cwd: dir, encoding: 'utf8' },
		);
		fs.rmSync(pwfile);
		// A spawn that never ran (runuser not on PATH, say) has an error and no output.
		if (init.error)
			throw new Error(`initdb could not be run through runuser: ${init.error.message}`);
		if (init.status !== 0) throw new Error(`initdb failed:\n${init.stdout}${init.stderr}`);

		const port = await freePort();
		const logFile = path.join(dir, 'postgres.log');
		const out = fs.openSync(logFile, 'a');
		fs.fchownSync(out, uid, gid);
		// Durability off: a throw-away database for a test (fsync and full-page writes cost seconds on a busy disk).
		const child = spawn(
			path.join(pgBin, 'postgres'),
			[
				'-D',
				data,
				'-p',
				String(port),
				'-h',
				'127.0.0.1',
				'-k',
				path.join(dir, 'socket'),
				'-c',
				'fsync=off',
				'-c',
				'synchronous_commit=off',
				'-c',
				'full_page_writes=off',
				'-c',
				'max_connections=200',
			],
			{
				cwd: dir,
				uid,
				gid,
				detached: true,
				stdio: ['ignore', out, out],
				env: { PATH: process.env.PATH, LANG: 'C' },
			},
		);
		fs.closeSync(out);
		const service = new Service('postgres', child, logFile);
		const env = { ...process.env, PGPASSWORD: password, PGCONNECT_TIMEOUT: '3' };
		const psql = (database, sql) =>
			spawnSync(
				path.join(pgBin, 'psql'),
				[
					'-h',
					'127.0.0.1',
					'-p',
					String(port),
					'-U',
					'n8n',
					'-d',
					database,
					'-v',
					'ON_ERROR_STOP=1',
					'-qAtc',
					sql,
				],
				{ env, encoding: 'utf8' },
			);
		try {
			await waitFor('postgres', async () => psql('postgres', 'select 1').status === 0, service);
			const created = psql('postgres', 'CREATE DATABASE n8n');
			if (created.status !== 0) throw new Error(`CREATE DATABASE failed: ${created.stderr}`);
		} catch (error) {
			await service.stop('SIGINT');
			throw error;
		}
		return {
			host: '127.0.0.1',
			port,
			database: 'n8n',
			user: 'n8n',
			password,
			pid: service.pid,
			/** Runs SQL in the n8n database; returns the rows as text (psql -At). */
			query: (sql) => {
				const result = psql('n8n', sql);
				if (result.status !== 0) throw new Error(`psql failed: ${result.stderr}`);
				return result.stdout.trim();
			},
			stop: async () => {
				await service.stop('SIGINT'); // fast shutdown: the backends end, then the postmaster
				remove();
			},
		};
	} catch (error) {
		remove();
		throw error;
	}
}

/**
 * Redis on a free loopback port, password required, no persistence, in a temporary folder. Resolves to
 * { host, port, password, stop() }.
 */
export async function startRedis(redisServer) {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stora-queue-redis-'));
	const remove = () => fs.rmSync(dir, { recursive: true, force: true });
	try {
		const port = await freePort();
		const password = randomBytes(18).toString('base64url');
		// The password goes in a config file, not the command line (ps would show it).
		const conf = path.join(dir, 'redis.conf');
		fs.writeFileSync(
			conf,
			[
				`port ${port}`,
				'bind 127.0.0.1',
				'protected-mode yes',
				`requirepass ${password}`,
				'save ""',
				'appendonly no',
				`dir ${dir}`,
				'daemonize no',
				'logfile ""',
				'',
			].join('\n'),
			{ mode: 0o600 },
		);
		const logFile = path.join(dir, 'redis.log');
		const out = fs.openSync(logFile, 'a');
		const child = spawn(redisServer, [conf], {
			cwd: dir,
			detached: true,
			stdio: ['ignore', out, out],
		});
		fs.closeSync(out);
		const service = new Service('redis', child, logFile);
		try {
			await waitFor('redis', () => redisPing(port, password), service);
		} catch (error) {
			await service.stop();
			throw error;
		}
		return {
			host: '127.0.0.1',
			port,
			password,
			pid: service.pid,
			stop: async () => {
				await service.stop();
				remove();
			},
		};
	} catch (error) {
		remove();
		throw error;
	}
}

/** AUTH + PING over RESP; true when Redis answers +OK and +PONG. */
function redisPing(port, password) {
	return new Promise((resolve) => {
		const socket = net.connect(port, '127.0.0.1');
		let reply = '';
		const done = (ok) => {
			socket.destroy();
			resolve(ok);
		};
		socket.setTimeout(2000, () => done(false));
		socket.on('error', () => done(false));
		socket.on('connect', () =>
			socket.write(
				`*2\r\n$4\r\nAUTH\r\n$${Buffer.byteLength(password)}\r\n${password}\r\n*1\r\n$4\r\nPING\r\n`,
			),
		);
		socket.on('data', (chunk) => {
			reply += chunk;
			if (reply.includes('+PONG')) done(reply.startsWith('+OK'));
			else if (reply.startsWith('-')) done(false);
		});
	});
}

function userIds(name) {
	const line = fs
		.readFileSync('/etc/passwd', 'utf8')
		.split('\n')
		.find((l) => l.startsWith(`${name}:`));
	if (!line) throw new Error(`no "${name}" user (the postgresql package creates it)`);
	const [, , uid, gid] = line.split(':');
	return { uid: Number(uid), gid: Number(gid) };
}
