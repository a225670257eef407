// An https front for the sandbox, for the checks of n8n's Ignore SSL Issues setting: a certificate made for the run
// (self-signed, for 127.0.0.1, by the machine's `openssl`; node:crypto cannot make certificates), and a TLS server
// on a free loopback port that passes each connection on, decrypted, to the sandbox's http port. The sandbox behind it
// is the one the run uses, with its request log.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import tls from 'node:tls';

/** Why no certificate can be made here, or undefined when `openssl` is on the PATH. */
export function certificateUnavailable() {
	const found = spawnSync('sh', ['-c', 'command -v openssl'], { encoding: 'utf8' });
	return found.status === 0
		? undefined
		: 'openssl is not on the PATH, and node:crypto cannot make a certificate';
}

/**
 * A self-signed certificate for 127.0.0.1 (subjectAltName IP:127.0.0.1, so only its issuer is wrong), valid for a
 * day; its key and certificate are written into `dir` (a folder of the run, removed with it) and returned as PEM.
 */
export function selfSignedCertificate(dir) {
	const keyFile = path.join(dir, 'tls-key.pem');
	const certFile = path.join(dir, 'tls-cert.pem');
	const args = [
		'req',
		'-x509',
		'-newkey',
		'ec',
		'-pkeyopt',
		'ec_paramgen_curve:prime256v1',
		'-nodes',
		'-days',
		'1',
	];
	args.push(
		'-keyout',
		keyFile,
		'-out',
		certFile,
		'-subj',
		'/CN=127.0.0.1',
		'-addext',
		'subjectAltName=IP:127.0.0.1',
	);
	const made = spawnSync('openssl', args, { encoding: 'utf8' });
	if (made.status !== 0)
		throw new Error(
			`openssl could not make a certificate: ${`${made.stderr ?? ''}`.trim().slice(-400)}`,
		);
	return { key: fs.readFileSync(keyFile, 'utf8'), cert: fs.readFileSync(certFile, 'utf8') };
}

/**
 * Starts the TLS front for `targetPort` (the sandbox's port on 127.0.0.1); resolves to `{ url, port, handshakes,
 * close() }`. `handshakes` counts the connections whose TLS handshake completed (a client that refused the
 * certificate has none).
 */
export async function startTlsFront(targetPort, { key, cert }) {
	const sockets = new Set();
	const track = (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
		socket.on('error', () => {});
	};
	const front = { handshakes: 0 };
	const server = tls.createServer({ key, cert }, (secure) => {
		front.handshakes++;
		track(secure);
		const plain = net.connect(targetPort, '127.0.0.1');
		track(plain);
		secure.pipe(plain);
		plain.pipe(secure);
		secure.on('close', () => plain.destroy());
		plain.on('close', () => secure.destroy());
	});
	server.on('connection', track);
	server.on('tlsClientError', () => {});
	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', resolve);
	});
	const { port } = server.address();
	return Object.assign(front, {
		port,
		url: `https://127.0.0.1:${port}`,
		close: async () => {
			for (const socket of sockets) socket.destroy();
			await new Promise((resolve) => server.close(() => resolve()));
		},
	});
}
