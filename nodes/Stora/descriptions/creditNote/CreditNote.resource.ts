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
		displayOptions: { show: { resource: ['creditNote'] } },
		options: [
			{
				name: 'Download PDF',
				value: 'downloadPdf',
				description:
					'Download a credit note as a PDF document. Returns one item whose binary field holds the file (named after the credit note number).',
				action: 'Download a credit note PDF',
				routing: {
					request: { ...PDF_DOWNLOAD_REQUEST, url: '/credit_notes/{creditNoteId}' },
				},
			},
			{
				name: 'Get',
				value: 'get',
				description:
					'Get a credit note (a reduction or reversal of part or all of an issued invoice) by ID. Returns its number, invoice, reason, type, line items and totals.',
				action: 'Get a credit note',
				routing: {
					request: { method: 'GET', url: '/credit_notes/{creditNoteId}' },
				},
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List credit notes, newest first. Returns one item per credit note.',
				action: 'Get many credit notes',
				routing: { request: { method: 'GET', url: '/credit_notes' } },
			},
		],
		default: 'getAll',
	},
	...downloadPdf.description,
	...get.description,
	...getAll.description,
];
