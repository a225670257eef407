import type { INodeProperties } from 'n8n-workflow';

import { PDF_DOWNLOAD_REQUEST } from '../common/downloads';
import * as downloadPdf from './downloadPdf.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['contract'] } },
		options: [
			{
				name: 'Download PDF',
				value: 'downloadPdf',
				description:
					'Download the signed document of a contract as a PDF file (binary data). Only signed contracts have one; others are refused.',
				action: 'Download the PDF of a contract',
				routing: {
					request: { ...PDF_DOWNLOAD_REQUEST, url: '/contracts/{contractId}' },
				},
			},
			{
				name: 'Get',
				value: 'get',
				description:
					'Get a contract (a document generated from a contract template for a contact) by ID, with its status: pending, signed, voided, declined or deleted',
				action: 'Get a contract',
				routing: { request: { method: 'GET', url: '/contracts/{contractId}' } },
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description:
					'List contracts, optionally filtered by status, contact, tenancy, template or dates',
				action: 'Get many contracts',
				routing: { request: { method: 'GET', url: '/contracts' } },
			},
		],
		default: 'getAll',
	},
	...downloadPdf.description,
	...get.description,
	...getAll.description,
];
