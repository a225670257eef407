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
		displayOptions: { show: { resource: ['invoice'] } },
		options: [
			{
				name: 'Download PDF',
				value: 'downloadPdf',
				description:
					'Download an invoice as a PDF document. Returns one item whose binary field holds the file (named after the invoice number).',
				action: 'Download an invoice PDF',
				routing: {
					request: { ...PDF_DOWNLOAD_REQUEST, url: '/invoices/{invoiceId}' },
				},
			},
			{
				name: 'Get',
				value: 'get',
				description:
					'Get an invoice (a billing document for a subscription or an ad hoc charge) by ID. Returns its number, status, collection status, amounts due and paid, dates and line items.',
				action: 'Get an invoice',
				routing: { request: { method: 'GET', url: '/invoices/{invoiceId}' } },
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description:
					'List invoices, newest first, filtered by contact, site, subscription, tenancy, status, type, collection status or creation, update and due dates. Returns one item per invoice.',
				action: 'Get many invoices',
				routing: { request: { method: 'GET', url: '/invoices' } },
			},
		],
		default: 'getAll',
	},
	...downloadPdf.description,
	...get.description,
	...getAll.description,
];
