/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test under test/, never published (n8n-core: the engine the tests run in; test/helpers/package.json has no devDependencies to read it from) */
/**
 * Runs the Stora Poll Trigger's `poll` the way n8n's active-workflow manager does: in n8n-core's real PollContext,
 * with the workflow's node static data kept from poll to poll (and handed to a new instance on restart).
 */
import { PollContext } from 'n8n-core';
import type {
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
} from 'n8n-workflow';

import { StoraPollTrigger } from '../../nodes/StoraPollTrigger/StoraPollTrigger.node';
import { additionalDataFor, type CredentialStore, storaNode, typesWith, workflowWith } from './n8n';

export class PollHarness {
	private readonly trigger = new StoraPollTrigger();
	private readonly node: INode;
	private built: ReturnType<typeof workflowWith>;

	constructor(
		private readonly credentials: CredentialStore,
		parameters: IDataObject,
		staticData?: IDataObject,
		timezone?: string,
		/** Another class for the trigger's type (a variant of its description under test). */
		nodeClass?: INodeType,
	) {
		this.node = storaNode(parameters as INodeParameters, { type: 'storaPollTrigger' });
		const staticCopy = staticData ? (JSON.parse(JSON.stringify(staticData)) as IDataObject) : {};
		this.built = workflowWith(
			this.node,
			staticCopy,
			timezone,
			nodeClass ? typesWith(nodeClass, 'storaPollTrigger') : undefined,
		);
	}

	/** The workflow's static data as n8n would save it after the poll. */
	get staticData(): IDataObject {
		// n8n stores it as JSON, so a restart sees exactly what survives JSON.
		return JSON.parse(JSON.stringify(this.built.workflow.staticData)) as IDataObject;
	}

	/** The context n8n hands a poll: `trigger` as on a schedule, `manual` as the editor's test run. */
	context(mode: 'trigger' | 'manual' = 'trigger'): PollContext {
		return new PollContext(
			this.built.workflow,
			this.node,
			additionalDataFor(this.credentials, 'poll'),
			mode,
			'activate',
		);
	}

	/** One poll: `trigger` as on a schedule, `manual` as the editor's test run. Returns the emitted records. */
	async poll(mode: 'trigger' | 'manual' = 'trigger'): Promise<IDataObject[] | null> {
		const result: INodeExecutionData[][] | null = await this.trigger.poll.call(this.context(mode));
		return result === null ? null : result[0].map((item) => item.json);
	}
}
