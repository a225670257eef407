/* eslint-disable @n8n/community-nodes/no-restricted-imports -- dev tool, never published */
/**
 * The "files host": a second listener on its own port (a different origin, like the S3 bucket behind the API's
 * image redirects) serving pre-signed URLs. Like S3, it refuses a request that also carries an `Authorization`
 * header (400), so a client that forwards its bearer token to the redirect target fails visibly.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const PRESIGN_TTL_SECONDS = 300;

interface StoredFile {
	content: Buffer;
	contentType: string;
	filename: string;
	expiresAt: number;
}

const s3Error = (code: string, message: string) =>
	`<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>\n`;

export class FilesHost {
	private readonly files = new Map<string, StoredFile>();
	private readonly key = randomBytes(32);
	private server?: Server;
	port = 0;

	constructor(private readonly now: () => number) {}

	async start(): Promise<void> {
		this.server = createServer((req, res) => this.handle(req, res));
		await new Promise<void>((resolve, reject) => {
			this.server!.once('error', reject);
			this.server!.listen(0, '127.0.0.1', () => resolve());
		});
		this.port = (this.server.address() as AddressInfo).port;
	}

	async close(): Promise<void> {
		if (!this.server) return;
		const server = this.server;
		this.server = undefined;
		server.closeAllConnections();
		await new Promise<void>((resolve) => server.close(() => resolve()));
	}

	clear() {
		this.files.clear();
	}

	presign(content: Buffer, contentType: string, filename: string): string {
		const token = randomBytes(12).toString('hex');
		const safeName = encodeURIComponent(filename);
		this.files.set(token, {
			content,
			contentType,
			filename,
			expiresAt: this.now() + PRESIGN_TTL_SECONDS * 1000,
		});
		const signature = this.sign(`${token}/${safeName}`);
		return `http://127.0.0.1:${this.port}/${token}/${safeName}?X-Amz-Expires=${PRESIGN_TTL_SECONDS}&X-Amz-Signature=${signature}`;
	}

	private sign(resource: string) {
		return createHmac('sha256', this.key).update(resource).digest('hex');
	}

	private handle(req: IncomingMessage, res: ServerResponse) {
		const send = (status: number, body: string | Buffer, type = 'application/xml') => {
			res.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body) });
			res.end(req.method === 'HEAD' ? undefined : body);
		};
		try {
			const url = new URL(req.url ?? '/', 'http://files.local');
			if (req.headers.authorization) {
				return send(
					400,
					s3Error(
						'InvalidArgument',
						'Only one auth mechanism allowed; only the X-Amz-Algorithm query parameter, Signature query string parameter or the Authorization header should be specified',
					),
				);
			}
			if (req.method !== 'GET' && req.method !== 'HEAD')
				return send(
					405,
					s3Error('MethodNotAllowed', 'The specified method is not allowed against this resource.'),
				);
			const [, token, name] = url.pathname.split('/');
			const file = token ? this.files.get(token) : undefined;
			const signature = url.searchParams.get('X-Amz-Signature') ?? '';
			if (!file || !name || signature !== this.sign(`${token}/${name}`)) {
				return send(
					403,
					s3Error(
						'SignatureDoesNotMatch',
						'The request signature we calculated does not match the signature you provided.',
					),
				);
			}
			if (this.now() >= file.expiresAt)
				return send(403, s3Error('AccessDenied', 'Request has expired'));
			res.writeHead(200, {
				'Content-Type': file.contentType,
				'Content-Length': file.content.length,
				'Content-Disposition': `inline; filename="${file.filename.replace(/"/g, '')}"`,
			});
			res.end(req.method === 'HEAD' ? undefined : file.content);
		} catch {
			if (!res.headersSent)
				send(500, s3Error('InternalError', 'We encountered an internal error. Please try again.'));
			else res.destroy();
		}
	}
}
