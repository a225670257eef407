// What makes n8n unable to store an execution, for the at-least-once checks: a database trigger that
// refuses new execution rows (SQLite for a single n8n, PostgreSQL for queue mode), or SQLite's lock held by another
// connection. Each is `{ on(), off() }`.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';

/**
 * What makes n8n unable to store an execution, for the SQLite database of a single n8n: a trigger in the database
 * that refuses every new execution row, as a full or locked database would, deterministically. `python3` writes it
 * (n8n holds the file open; SQLite lets a second connection change the schema between n8n's statements).
 */
export function sqliteRefusal(userFolder) {
	const database = path.join(userFolder, '.n8n', 'database.sqlite');
	const sql = (statement) => {
		const result = spawnSync(
			'python3',
			[
				'-c',
				'import sqlite3,sys; c=sqlite3.connect(sys.argv[1], timeout=30); c.execute(sys.argv[2]); c.commit()',
				database,
				statement,
			],
			{ encoding: 'utf8' },
		);
		if (result.status !== 0) throw new Error(`sqlite: ${result.stderr}`);
	};
	return {
		on: () =>
			sql(
				"CREATE TRIGGER stora_e2e_refuse BEFORE INSERT ON execution_entity BEGIN SELECT RAISE(ABORT, 'e2e: the database refuses new executions'); END",
			),
		off: () => sql('DROP TRIGGER IF EXISTS stora_e2e_refuse'),
	};
}

/**
 * The issue's own case, a busy database: a second connection holds SQLite's exclusive lock (`BEGIN EXCLUSIVE`) until
 * `off()` stops it by its PID. n8n 2.41 waits about 2.5 s for the lock, then answers 500.
 */
export function sqliteLock(userFolder) {
	const database = path.join(userFolder, '.n8n', 'database.sqlite');
	let holder;
	return {
		on: () => {
			const script =
				'import sqlite3,sys,time; c=sqlite3.connect(sys.argv[1], isolation_level=None); c.execute("BEGIN EXCLUSIVE"); print("locked", flush=True); time.sleep(120)';
			holder = spawn('python3', ['-c', script, database], { stdio: ['ignore', 'pipe', 'inherit'] });
			return new Promise((resolve, reject) => {
				holder.stdout.once('data', resolve);
				holder.once('exit', (code) =>
					reject(new Error(`the lock holder ended (${code}) before it held the lock`)),
				);
			});
		},
		off: () => {
			if (holder?.exitCode === null) holder.kill('SIGTERM');
		},
	};
}

/** The same for n8n on PostgreSQL (queue mode): `pg.query` runs SQL as n8n's database user, which owns the table. */
export function postgresRefusal(pg) {
	return {
		on: () =>
			pg.query(
				"CREATE OR REPLACE FUNCTION stora_e2e_refuse() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'e2e: the database refuses new executions'; END $$ LANGUAGE plpgsql; " +
					'CREATE TRIGGER stora_e2e_refuse BEFORE INSERT ON execution_entity FOR EACH ROW EXECUTE FUNCTION stora_e2e_refuse()',
			),
		off: () => pg.query('DROP TRIGGER IF EXISTS stora_e2e_refuse ON execution_entity'),
	};
}
