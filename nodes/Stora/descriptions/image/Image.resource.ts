import type { INodeProperties } from 'n8n-workflow';

import * as download from './download.operation';

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['image'] } },
		options: [
			{
				name: 'Download',
				value: 'download',
				description:
					'Download a site or unit type image as a binary file. Takes the image URL found in images.default (original, small, medium or large) of a site or unit type. Returns an item with fileName and mimeType and the file in binary data.',
				action: 'Download an image',
				routing: {
					request: {
						method: 'GET',
						encoding: 'arraybuffer',
						json: false,
						headers: { Accept: 'image/*, */*;q=0.8' },
						// The API redirects to a pre-signed address on another host: the transport follows it without the token.
						sendCredentialsOnCrossOriginRedirect: false,
					},
				},
			},
		],
		default: 'download',
	},
	...download.description,
];
