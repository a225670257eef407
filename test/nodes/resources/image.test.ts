import { useResourceFixture } from '../../helpers/sandboxFixture';

type ImageSet = { original: string; small: string; medium: string; large: string };

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Width of a PNG, from its IHDR chunk. */
const pngWidth = (bytes: Buffer) => bytes.readUInt32BE(16);

describe('Stora node: Image', () => {
	const fixture = useResourceFixture();
	const { client, run } = fixture;

	const imagesOf = async (collection: string) =>
		(await client.state(collection))
			.map((record) => (record.images as { default: ImageSet | null }).default)
			.filter((images): images is ImageSet => images !== null);

	it('downloads a site image from its URL, following the redirect to the files host without the bearer token', async () => {
		const [images] = await imagesOf('sites');
		const result = await run({
			resource: 'image',
			operation: 'download',
			source: 'url',
			imageUrl: images.original,
			binaryPropertyName: 'photo',
		});
		// The files host answers 400 to any request carrying Authorization: success proves the token stayed behind.
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(1);
		const { json, binary } = result.items[0];
		expect(json).toMatchObject({ fileName: 'site-photo.png', mimeType: 'image/png' });
		expect(binary?.photo).toMatchObject({ fileName: 'site-photo.png', mimeType: 'image/png' });
		const bytes = Buffer.from(binary!.photo.data, 'base64');
		expect(bytes.subarray(0, 8)).toEqual(PNG_SIGNATURE);
		expect(pngWidth(bytes)).toBe(32);

		const requests = await client.requests();
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({
			method: 'GET',
			path: new URL(images.original).pathname,
			query: {},
			status: 302,
		});
		expect(requests[0].headers.authorization).toBe('Bearer ***');
	});

	it('downloads a unit type image variant from its token and file name', async () => {
		const [images] = await imagesOf('unit_types');
		const [, , , token, fileName] = new URL(images.small).pathname.split('/');
		const result = await run({
			resource: 'image',
			operation: 'download',
			source: 'token',
			imageKey: token,
			fileName: decodeURIComponent(fileName),
		});
		expect(result.error).toBeUndefined();
		const bytes = Buffer.from(result.items[0].binary!.data.data, 'base64');
		expect(bytes.subarray(0, 8)).toEqual(PNG_SIGNATURE);
		expect(pngWidth(bytes)).toBe(8);
		expect(result.items[0].json.fileName).toBe('unit-type-photo.png');
		expect((await client.requests())[0].path).toBe(`/2025-09/images/${token}/${fileName}`);
	});

	it("sends the request to the credential's Base URL even when the pasted URL names another host", async () => {
		const [images] = await imagesOf('sites');
		const foreign = new URL(images.medium);
		const result = await run({
			resource: 'image',
			operation: 'download',
			imageUrl: `https://images.attacker.invalid${foreign.pathname}`,
		});
		expect(result.error).toBeUndefined();
		expect(pngWidth(Buffer.from(result.items[0].binary!.data.data, 'base64'))).toBe(16);
		expect((await client.requests())[0].path).toBe(foreign.pathname);
	});

	it('rejects a URL that is not an image URL before any request', async () => {
		const [site] = await client.state('sites');
		const result = await run({
			resource: 'image',
			operation: 'download',
			imageUrl: `${fixture.sandbox.url}/2025-09/sites/${site.id}`,
		});
		expect(result.error?.message).toContain('is not a Stora image URL');
		expect(await client.requests()).toEqual([]);
	});

	it('rejects a malformed token before any request', async () => {
		const result = await run({
			resource: 'image',
			operation: 'download',
			source: 'token',
			imageKey: 'not-a-token',
			fileName: 'site-photo.png',
		});
		expect(result.error?.message).toContain('is not an image token');
		expect(await client.requests()).toEqual([]);
	});

	it('reports an image the API does not know with its code', async () => {
		const [images] = await imagesOf('sites');
		const result = await run({
			resource: 'image',
			operation: 'download',
			imageUrl: images.original.replace('site-photo.png', 'other.png'),
		});
		expect(result.error?.message).toMatch(/\[resource_not_found\]$/);
		expect((result.error as { httpCode?: string }).httpCode).toBe('404');
	});
});
