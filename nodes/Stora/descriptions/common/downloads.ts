/** Files the node downloads (PDFs, CSV exports, images): where they go and how a PDF is asked for. */
import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';
import { PARAMETER } from '../../helpers/parameters';

/** Where a downloaded file (PDF, CSV, image) goes in the item's binary data. */
export function binaryPropertyName(displayOptions?: IDisplayOptions): INodeProperties {
	return {
		displayName: 'Put Output File in Field',
		name: PARAMETER.binaryPropertyName,
		type: 'string',
		default: 'data',
		hint: 'The name of the output binary field to put the file in',
		...(displayOptions ? { displayOptions } : {}),
	};
}

/** The request of a "Download PDF" operation: the record's own URL, answered as a document. */
export const PDF_DOWNLOAD_REQUEST = {
	method: 'GET',
	encoding: 'arraybuffer',
	json: false,
	headers: { Accept: 'application/pdf' },
} satisfies NonNullable<NonNullable<INodeProperties['routing']>['request']>;
