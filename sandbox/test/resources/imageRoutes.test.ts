/** Images (`/images/:token/:file`): site and unit type image URLs redirect to the files host; forged ones are 404. */
import type { Json } from '../calls';
import { useSandboxWithClients } from '../fixture';

const fx = useSandboxWithClients({
	seed: 'demo',
	resetEach: false,
	client: { redirect: 'follow' },
});

const absolute = (url: string) => (url.startsWith('/') ? `${fx.sandbox.url}${url}` : url);

describe('images', () => {
	test('site and unit type images redirect to a pre-signed URL on another host', async () => {
		const sites = (await fx.call('GET', '/2025-09/sites')).body.sites as Json[];
		const withImage = sites.find((s) => s.images.default !== null)!;
		expect(sites.some((s) => s.images.default === null)).toBe(true);
		const image = withImage.images.default as Json;
		expect(Object.keys(image).sort()).toEqual(['large', 'medium', 'original', 'small']);
		expect(image.original).toMatch(
			/\/2025-09\/images\/[A-Za-z0-9_-]+--[0-9a-f]{40}\/site-photo\.png$/,
		);
		// Paths on the API's base URL (absolute once the core exposes its base URL to render hooks).
		expect(absolute(image.original as string).startsWith(`${fx.sandbox.url}/2025-09/images/`)).toBe(
			true,
		);

		// No bearer token: image URLs are fetched as they are.
		const redirect = await fetch(absolute(image.original as string), { redirect: 'manual' });
		expect(redirect.status).toBe(302);
		const location = redirect.headers.get('location')!;
		expect(new URL(location).origin).toBe(new URL(fx.sandbox.filesUrl).origin);
		expect(new URL(location).origin).not.toBe(new URL(fx.sandbox.url).origin);

		const file = await fetch(location);
		expect(file.status).toBe(200);
		expect(file.headers.get('content-type')).toBe('image/png');
		const bytes = Buffer.from(await file.arrayBuffer());
		expect(bytes.subarray(0, 8)).toEqual(
			Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
		);
		const width = bytes.readUInt32BE(16);

		const small = await fetch(absolute(image.small as string), { redirect: 'manual' });
		const smallBytes = Buffer.from(
			await (await fetch(small.headers.get('location')!)).arrayBuffer(),
		);
		expect(smallBytes.readUInt32BE(16)).toBeLessThan(width);

		const unitTypes = (await fx.call('GET', '/2025-09/unit_types?limit=100')).body
			.unit_types as Json[];
		const typed = unitTypes.find((t) => t.images.default !== null)!;
		const typeRedirect = await fetch(absolute(typed.images.default.medium as string), {
			redirect: 'manual',
		});
		expect(typeRedirect.status).toBe(302);
		expect(typeRedirect.headers.get('location')).toContain('unit-type-photo.png');
	});

	test('forged tokens and wrong file names are 404', async () => {
		const sites = (await fx.call('GET', '/2025-09/sites')).body.sites as Json[];
		const original = absolute(
			sites.find((s) => s.images.default !== null)!.images.default.original as string,
		);
		const forged = original.replace(
			/--([0-9a-f])/,
			(_m, c: string) => `--${c === '0' ? '1' : '0'}`,
		);
		expect((await fetch(forged, { redirect: 'manual' })).status).toBe(404);
		expect(
			(await fetch(original.replace('site-photo.png', 'other.png'), { redirect: 'manual' })).status,
		).toBe(404);
	});
});
