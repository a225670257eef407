import {
	binaryPropertyName,
	outputFormat,
	PDF_DOWNLOAD_REQUEST,
	resourceLocator,
	returnAllAndLimit,
	showFor,
	simplifyToggle,
	type ResourceDefinition,
} from '../shared/descriptions';

const getMany = showFor('creditNote', ['getAll']);

const properties: ResourceDefinition['properties'] = [
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
				routing: { request: PDF_DOWNLOAD_REQUEST },
			},
			{
				name: 'Get',
				value: 'get',
				description:
					'Get a credit note (a reduction or reversal of part or all of an issued invoice) by ID. Returns its number, invoice, reason, type, line items and totals.',
				action: 'Get a credit note',
				routing: { request: { method: 'GET' } },
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
	resourceLocator({
		name: 'creditNoteId',
		displayName: 'Credit Note',
		prefix: 'cred_',
		searchListMethod: 'searchCreditNotes',
		url: '/credit_notes/{id}',
		displayOptions: showFor('creditNote', ['downloadPdf', 'get']),
	}),
	binaryPropertyName(showFor('creditNote', ['downloadPdf'])),
	...returnAllAndLimit(getMany),
	...outputFormat(getMany),
	simplifyToggle({
		...showFor('creditNote', ['get', 'getAll']),
		hide: { outputFormat: ['csv'] },
	}),
];

export const creditNoteResource: ResourceDefinition = {
	option: { name: 'Credit Note', value: 'creditNote' },
	properties,
	simplifiedFields: ['id', 'number', 'invoice', 'contact', 'status', 'type', 'reason', 'total', 'created_at'],
};
