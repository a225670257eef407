/**
 * Runs the Stora Poll Trigger's `poll` the way n8n's active-workflow manager does: in n8n-core's real PollContext,
 * with the workflow's node static data kept from poll to poll (and handed to a new instance on restart).
 */
import { PollContext } from 'n8n-core';
import type { IDataObject, INode, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { StoraPollTrigger } from '../../nodes/StoraPollTrigger/StoraPollTrigger.node';
import { additionalDataFor, type CredentialStore, storaNode, workflowWith } from './n8n';

export class PollHarness {
	private readonly trigger = new StoraPollTrigger();
	private readonly node: INode;
	private built: ReturnType<typeof workflowWith>;

	constructor(
		private readonly credentials: CredentialStore,
		parameters: IDataObject,
		staticData?: IDataObject,
		timezone?: string,
	) {
		this.node = storaNode(parameters as INodeParameters, { type: 'storaPollTrigger' });
		this.built = workflowWith(this.node, staticData ? (JSON.parse(JSON.stringify(staticData)) as IDataObject) : {}, timezone);
	}

	/** The workflow's static data as n8n would save it after the poll. */
	get staticData(): IDataObject {
		// n8n stores it as JSON, so a restart sees exactly what survives JSON.
		return JSON.parse(JSON.stringify(this.built.workflow.staticData)) as IDataObject;
	}

	/** One poll: `trigger` as on a schedule, `manual` as the editor's test run. Returns the emitted records. */
	async poll(mode: 'trigger' | 'manual' = 'trigger'): Promise<IDataObject[] | null> {
		const context = new PollContext(
			this.built.workflow,
			this.node,
			additionalDataFor(this.credentials, 'poll'),
			mode,
			'activate',
		);
		const result: INodeExecutionData[][] | null = await this.trigger.poll.call(context);
		return result === null ? null : result[0].map((item) => item.json);
	}
}
