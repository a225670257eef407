// A forward proxy for the checks of n8n's Proxy setting (Settings → Request Options → Proxy): a plain Node http
// server on a free loopback port that forwards absolute-URI requests (http targets) and tunnels CONNECT (https
// targets), and logs each request it was asked for. Given a user and password, it answers 407 to any request without
// the matching Proxy-Authorization (Basic), as a company proxy does, and its `url` carries them (http://user:pass@...).
import http from 'node:http';
import net from 'node:net';

/** Host and port of a CONNECT target (`host:port`, `[::1]:port`). */
function hostAndPort(authority) {
	const match = /^\[?([^\]]+?)\]?:(\d+)$/.exec(authority);
	return match ? { host: match[1], port: Number(match[2]) } : undefined;
}

/**
 * Starts the proxy; resolves to `{ url, port, log, close() }`. `log` holds one entry per request, in arrival order:
 * `{ method, url (the absolute URI, or host:port for CONNECT), authorized, status }`; empty it with `log.length = 0`.
 * `close()` ends every connection and tunnel it holds.
 */
export async function startForwardProxy({ username, password } = {}) {
	const expected =
		username === undefined
			? undefined
			: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
	const isAuthorized = (req) =>
		expected === undefined || req.headers['proxy-authorization'] === expected;
	const log = [];
	const sockets = new Set();
	const track = (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	};

	const server = http.createServer((req, res) => {
		const entry = { method: req.method, url: req.url, authorized: isAuthorized(req), status: null };
		log.push(entry);
		const refuse = (status, text, headers = {}) => {
			entry.status = status;
			res.writeHead(status, { 'Content-Type': 'text/plain', ...headers });
			res.end(text);
		};
		if (!entry.authorized)
			return refuse(407, 'Proxy authentication required', {
				'Proxy-Authenticate': 'Basic realm="e2e proxy"',
			});
		let target;
		try {
			target = new URL(req.url);
		} catch {
			// not an absolute URI
		}
		if (target?.protocol !== 'http:')
			return refuse(400, 'This proxy forwards absolute http:// URIs and tunnels CONNECT');
		const headers = { ...req.headers };
		delete headers['proxy-authorization'];
		delete headers['proxy-connection'];
		const upstream = http.request(
			{
				host: target.hostname,
				port: Number(target.port || 80),
				method: req.method,
				path: `${target.pathname}${target.search}`,
				headers,
			},
			(answer) => {
				entry.status = answer.statusCode;
				res.writeHead(answer.statusCode, answer.headers);
				answer.pipe(res);
			},
		);
		upstream.on('error', (error) => {
			entry.error = error.message;
			if (!res.headersSent) refuse(502, `The proxy could not reach ${target.host}`);
			else res.destroy();
		});
		req.pipe(upstream);
	});

	server.on('connect', (req, client, head) => {
		track(client);
		const entry = { method: 'CONNECT', url: req.url, authorized: isAuthorized(req), status: null };
		log.push(entry);
		client.on('error', () => {});
		const answer = (status, text) => {
			entry.status = status;
			client.end(
				`HTTP/1.1 ${status} ${text}\r\n${status === 407 ? 'Proxy-Authenticate: Basic realm="e2e proxy"\r\n' : ''}Content-Length: 0\r\n\r\n`,
			);
		};
		if (!entry.authorized) return answer(407, 'Proxy Authentication Required');
		const target = hostAndPort(req.url);
		if (!target) return answer(400, 'Bad Request');
		const upstream = net.connect(target.port, target.host, () => {
			entry.status = 200;
			client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
			if (head.length) upstream.write(head);
			upstream.pipe(client);
			client.pipe(upstream);
		});
		track(upstream);
		upstream.on('error', (error) => {
			entry.error = error.message;
			if (entry.status === null) answer(502, 'Bad Gateway');
			else client.destroy();
		});
		client.on('close', () => upstream.destroy());
	});
	server.on('connection', track);

	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', resolve);
	});
	const { port } = server.address();
	const credentials =
		username === undefined
			? ''
			: `${encodeURIComponent(username)}:${encodeURIComponent(password)}@`;
	return {
		port,
		url: `http://${credentials}127.0.0.1:${port}`,
		log,
		close: async () => {
			for (const socket of sockets) socket.destroy();
			server.closeAllConnections();
			await new Promise((resolve) => server.close(() => resolve()));
		},
	};
}
