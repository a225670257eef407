/**
 * The probe's own webhook receiver (`--listen`): it answers every POST with 200 and keeps the raw body and headers,
 * so the signature can be read as Stora sends it. `--webhook-url` is the public address that reaches it (a tunnel).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';

import { WHERE } from './points.mjs';

/** `listen`: a port, or host:port (default host 127.0.0.1). */
export async function startReceiver(listen) {
	const match = /^(?:(.+):)?(\d+)$/.exec(String(listen));
	if (!match) throw new Error(`--listen ${listen}: give a port, or host:port`);
	const [, host = '127.0.0.1', port] = match;
	const deliveries = [];
	const waiters = [];
	const server = createServer((req, res) => {
		const chunks = [];
		req.on('data', (chunk) => chunks.push(chunk));
		req.on('end', () => {
			const delivery = {
				method: req.method,
				headers: { ...req.headers },
				raw: Buffer.concat(chunks).toString('utf8'),
				at: Date.now(),
			};
			res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
			if (req.method !== 'POST') return;
			deliveries.push(delivery);
			for (const waiter of [...waiters]) waiter();
		});
	});
	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(Number(port), host, resolve);
	});
	return {
		port: server.address().port,
		deliveries,
		/** The first delivery that `accept`s, or undefined after `timeoutMs`. */
		async waitFor(accept, timeoutMs) {
			const found = () => deliveries.find(accept);
			if (found()) return found();
			return await new Promise((resolve) => {
				const timer = setTimeout(() => done(undefined), timeoutMs);
				const check = () => {
					const delivery = found();
					if (delivery) done(delivery);
				};
				function done(value) {
					clearTimeout(timer);
					waiters.splice(waiters.indexOf(check), 1);
					resolve(value);
				}
				waiters.push(check);
			});
		},
		close: () =>
			new Promise((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

const equal = (a, b) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * `t` and `v1` of a delivery's `X-Stora-Signature`: the unit of `t` (by its size, checked against the arrival time)
 * and the encoding of `v1` (the HMAC-SHA256 of "<t>.<raw body>" with the endpoint's secret, as hex or base64).
 */
export function signaturePoints(delivery, secret) {
	const tId = 'webhook signature t';
	const v1Id = 'webhook signature v1';
	const header = delivery?.headers['x-stora-signature'];
	if (!delivery || typeof header !== 'string') {
		const why = delivery
			? 'the delivery had no X-Stora-Signature header'
			: 'no delivery reached the receiver in time';
		return [tId, v1Id].map((id) => ({
			id,
			verdict: 'unknown',
			evidence: why,
			where: WHERE.signature,
		}));
	}
	const parts = Object.fromEntries(
		header
			.split(',')
			.map((part) => part.trim().split('='))
			.map(([key, ...rest]) => [key, rest.join('=')]),
	);
	const points = [];
	const t = Number(parts.t);
	if (!/^\d+$/.test(parts.t ?? '')) {
		points.push({
			id: tId,
			verdict: 'unknown',
			evidence: `t is ${JSON.stringify(parts.t)}, not a whole number`,
			where: WHERE.signature,
		});
	} else {
		const unit = t > 1e11 ? 'milliseconds' : 'seconds';
		const skew =
			Math.round((unit === 'seconds' ? delivery.at / 1000 - t : (delivery.at - t) / 1000) * 10) /
			10;
		points.push({
			id: tId,
			verdict: unit,
			evidence: `t has ${parts.t.length} digits; as Unix ${unit} it lies ${skew} s before the delivery arrived`,
			where: WHERE.signature,
		});
	}
	const v1 = parts.v1 ?? '';
	const mac = () => createHmac('sha256', secret ?? '').update(`${parts.t}.${delivery.raw}`);
	const hex = mac().digest('hex');
	const base64 = mac().digest('base64');
	let verdict = 'unknown';
	let evidence = `v1 (${v1.length} characters) is neither the hex nor the base64 HMAC-SHA256 of "<t>.<raw body>" with the endpoint's secret`;
	if (!secret)
		evidence = 'the endpoint was created without a secret in its answer, so v1 cannot be checked';
	else if (equal(v1.toLowerCase(), hex))
		[verdict, evidence] = [
			'hex',
			`v1 is the lower-case hex HMAC-SHA256 of "<t>.<raw body>"${v1 === hex ? '' : ' (sent in upper case)'}`,
		];
	else if (
		equal(v1, base64) ||
		equal(v1, base64.replace(/=+$/, '')) ||
		equal(v1, base64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''))
	) {
		[verdict, evidence] = [
			'base64',
			`v1 is the base64${v1 === base64 ? '' : ' (URL-safe or unpadded)'} HMAC-SHA256 of "<t>.<raw body>"`,
		];
	}
	points.push({ id: v1Id, verdict, evidence, where: WHERE.signature });
	return points;
}
