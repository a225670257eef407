/**
 * What the trigger does in Stora when the editor listens, said where the user clicks: a test listen registers an
 * endpoint of its own, which lives only as long as the listen (docs/usage.md, "Stora Trigger").
 */
import type { NodeHint } from 'n8n-workflow';

export const hints: NodeHint[] = [
	{
		message:
			'Execute step registers a temporary "(test)" webhook endpoint in Stora for n8n\'s test URL and removes it when the listen ends (an event, Stop Listening, n8n\'s 2-minute timeout or a new listen). Publishing the workflow registers its own endpoint.',
		type: 'info',
		location: 'ndv',
		whenToDisplay: 'beforeExecution',
	},
];
