import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	expandOption,
	LINE_ITEM_ITEMS,
	optionsCollection,
	simplifyToggle,
} from '../common/getMany';
import { idField, locator, recordDropdown } from '../common/records';
import { DEAL_EXPAND } from './fields';

const properties: INodeProperties[] = [
	locator('deal'),
	{
		displayName: 'Additional Fields',
		name: 'reopenFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			idField('staff', {
				displayName: 'Assignee ID',
				name: 'assigneeId',
				path: 'reopenFields.assigneeId',
				property: 'assignee',
				description: 'ID of the staff member who owns the reopened deal (staff_...)',
			}),
			recordDropdown('dealStage', {
				name: 'stageId',
				path: 'reopenFields.stageId',
				property: 'stage',
				description: 'Pipeline stage to reopen the deal into',
			}),
		],
	},
	optionsCollection([expandOption(DEAL_EXPAND, LINE_ITEM_ITEMS)]),
	simplifyToggle(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['deal'], operation: ['reopen'] } },
	properties,
);
