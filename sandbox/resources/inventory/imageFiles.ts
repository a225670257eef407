/* eslint-disable @n8n/community-nodes/no-restricted-imports -- dev tool, never published */
/**
 * The files behind the image URLs of sites and unit types (`images.default`): signed image tokens like the API's,
 * one URL per variant, the URLs made absolute on render, and the PNG each variant answers with (images.ts serves
 * them).
 */
import { createHmac } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';

import type { ApiRecord, SandboxCore } from '../../core/types';
import { V, obj, str } from '../billing/shared';

const IMAGE_SECRET = 'stora-sandbox-image-signing-key';
export const IMAGE_VARIANTS = ['original', 'small', 'medium', 'large'] as const;
const VARIANT_SIZE: Record<string, number> = { original: 32, large: 24, medium: 16, small: 8 };

/** Signs an image token `<base64url JSON>--<40 hex>` like the API's image URLs. */
export function imageToken(id: string, variant: string): string {
	const json = JSON.stringify(
		variant === 'original' ? { id, name: 'default' } : { id, name: 'default', variant },
	);
	const encoded = Buffer.from(json).toString('base64url');
	return `${encoded}--${createHmac('sha1', IMAGE_SECRET).update(encoded).digest('hex')}`;
}

/** Verifies a token; returns its payload or null when forged or malformed. */
export function readImageToken(
	token: string,
): { id: string; name: string; variant?: string } | null {
	const [encoded, digest, ...rest] = token.split('--');
	if (!encoded || !digest || rest.length) return null;
	if (createHmac('sha1', IMAGE_SECRET).update(encoded).digest('hex') !== digest) return null;
	try {
		const payload = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as Record<
			string,
			unknown
		>;
		if (typeof payload.id !== 'string' || typeof payload.name !== 'string') return null;
		return { id: payload.id, name: payload.name, variant: str(payload.variant) ?? undefined };
	} catch {
		return null;
	}
}

/**
 * The `images.default` object of a site or unit type: one URL per variant, each
 * `<base url>/2025-09/images/<token>/<filename>`. Stored as paths; `absoluteImages` prefixes the base URL on render.
 */
export function imageSet(id: string, filename: string): Record<string, string> {
	return Object.fromEntries(
		IMAGE_VARIANTS.map((v) => [
			v,
			`${V}/images/${imageToken(id, v)}/${encodeURIComponent(filename)}`,
		]),
	);
}

/**
 * The sandbox's own base URL when the core exposes one (`baseUrl`, a string or a function; not part of the
 * SandboxCore contract yet), else ''. Image URLs then stay paths relative to the API's base URL.
 */
export function baseUrl(core: SandboxCore): string {
	const candidate = (core as unknown as { baseUrl?: unknown }).baseUrl;
	const value =
		typeof candidate === 'function' ? (candidate as () => unknown).call(core) : candidate;
	return typeof value === 'string' ? value.replace(/\/$/, '') : '';
}

/** Render hook part: turns stored image paths into absolute URLs on the sandbox's base URL. */
export function absoluteImages(record: ApiRecord, core: SandboxCore): ApiRecord {
	const images = obj(record.images);
	const def = images.default;
	if (!def || typeof def !== 'object') return record;
	const base = baseUrl(core);
	const absolute = Object.fromEntries(
		Object.entries(def as Record<string, string>).map(([k, v]) => [
			k,
			v.startsWith('/') ? `${base}${v}` : v,
		]),
	);
	return { ...record, images: { ...images, default: absolute } };
}

/** A small, valid RGB PNG of one colour derived from `seed`. */
export function png(seed: string, size: number): Buffer {
	const hash = createHmac('sha1', 'colour').update(seed).digest();
	const chunk = (type: string, data: Buffer) => {
		const length = Buffer.alloc(4);
		length.writeUInt32BE(data.length);
		const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
		const crc = Buffer.alloc(4);
		crc.writeUInt32BE(crc32(body) >>> 0);
		return Buffer.concat([length, body, crc]);
	};
	const header = Buffer.alloc(13);
	header.writeUInt32BE(size, 0);
	header.writeUInt32BE(size, 4);
	header[8] = 8; // bit depth
	header[9] = 2; // truecolour
	const row = Buffer.concat([
		Buffer.from([0]),
		Buffer.concat(Array.from({ length: size }, () => hash.subarray(0, 3))),
	]);
	const pixels = Buffer.concat(Array.from({ length: size }, () => row));
	return Buffer.concat([
		Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
		chunk('IHDR', header),
		chunk('IDAT', deflateSync(pixels)),
		chunk('IEND', Buffer.alloc(0)),
	]);
}

export const imageVariantSize = (variant: string | undefined) =>
	VARIANT_SIZE[variant ?? 'original'] ?? 32;
