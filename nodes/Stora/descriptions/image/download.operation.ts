import type { IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { fail } from '../../helpers/validation';
import { binaryPropertyName } from '../common/downloads';

/** `<base64 JSON>--<40 hex>`: the signed token the API puts in its image URLs. */
const TOKEN_PATTERN = /^[A-Za-z0-9_\-+/=]+--[0-9a-f]{40}$/;

/**
 * Builds the request path from the image URL (or token and file name). Only the token and the file name are taken
 * from the URL: the request always goes to the credential's Base URL, so the access token is never sent to a host
 * the user pasted.
 */
async function imagePath(
	this: IExecuteSingleFunctions,
	options: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const source = this.getNodeParameter('source', 'url') as string;
	let token: string;
	let fileName: string;
	if (source === 'url') {
		const raw = String(this.getNodeParameter('imageUrl', '') ?? '').trim();
		let pathname: string;
		try {
			pathname = new URL(raw, 'https://placeholder.invalid').pathname;
		} catch {
			pathname = '';
		}
		const match = /\/images\/([^/]+)\/([^/]+)\/?$/.exec(pathname);
		if (!match) {
			fail(
				this,
				`Image URL: "${raw}" is not a Stora image URL`,
				'Use an image URL from a site or unit type, e.g. the value of images.default.original: https://public-api.stora.co/2025-09/images/<token>/<file name>.',
			);
		}
		try {
			token = decodeURIComponent(match[1]);
			fileName = decodeURIComponent(match[2]);
		} catch {
			fail(
				this,
				`Image URL: "${raw}" is not a valid URL`,
				'The URL contains a malformed escape sequence.',
			);
		}
	} else {
		token = String(this.getNodeParameter('imageKey', '') ?? '').trim();
		fileName = String(this.getNodeParameter('fileName', '') ?? '').trim();
		if (!fileName || fileName.includes('/')) {
			fail(
				this,
				`File Name: "${fileName}" is not a file name`,
				"Give the image's file name, e.g. site-photo.jpg.",
			);
		}
	}
	if (!TOKEN_PATTERN.test(token)) {
		fail(
			this,
			`Image Token: "${token}" is not an image token`,
			'An image token looks like <base64 text>--<40 hexadecimal characters>, as in the image URLs of sites and unit types.',
		);
	}
	return {
		...options,
		url: `/images/${encodeURIComponent(token)}/${encodeURIComponent(fileName)}`,
	};
}

const properties: INodeProperties[] = [
	{
		displayName: 'Input',
		name: 'source',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Image URL',
				value: 'url',
				description: 'A URL from images.default of a site or unit type',
			},
			{
				name: 'Token and File Name',
				value: 'token',
				description: 'The two last parts of such a URL',
			},
		],
		default: 'url',
	},
	{
		displayName: 'Image URL',
		name: 'imageUrl',
		type: 'string',
		required: true,
		default: '',
		placeholder:
			'https://public-api.stora.co/2025-09/images/eyJpZCI6InNpdGVfMTIzIn0--0123abcd/site-photo.jpg',
		description:
			'The image URL as found in images.default.original (or small, medium, large) of a site or unit type, usually set with an expression from a previous Get',
		displayOptions: { show: { source: ['url'] } },
		routing: { send: { preSend: [imagePath] } },
	},
	{
		displayName: 'Image Token',
		name: 'imageKey',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'eyJpZCI6InNpdGVfMTIzIn0--0123456789abcdef0123456789abcdef01234567',
		description:
			'The part of the image URL after /images/: base64 text, two dashes and 40 hexadecimal characters',
		displayOptions: { show: { source: ['token'] } },
		routing: { send: { preSend: [imagePath] } },
	},
	{
		displayName: 'File Name',
		name: 'fileName',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'site-photo.jpg',
		description: 'The last part of the image URL',
		displayOptions: { show: { source: ['token'] } },
	},
	binaryPropertyName(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['image'], operation: ['download'] } },
	properties,
);
