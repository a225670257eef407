/**
 * The webhook endpoints a Stora Trigger registered, kept in the node's static data and keyed by the URL n8n gave the
 * hook: `/webhook-test/...` while the editor listens for a test event, `/webhook/...` for the published workflow.
 *
 * Why by URL: n8n ends both kinds of listening with the same mode (`internal`, activation `update`; n8n 1.123 to
 * 2.41), so a mode name cannot tell a test from a publication, while the URL it passes to every hook call can. A test
 * listen also runs on static data of its own (n8n keeps it with the test registration and never saves it), so an
 * endpoint that n8n forgot (a new listen over an old one, a crash between create and save) is found in Stora by its
 * URL, which names this node's webhook, and removed before a new one is registered: never two at one URL.
 */
import type { IDataObject, IHookFunctions, IWebhookFunctions } from 'n8n-workflow';

import { jsonBodyOf, nextPageOf, recordsOf } from '../Stora/helpers/response';
import { storaRequest } from '../Stora/transport/request';

export interface Registration {
	endpointId: string;
	secret: string;
	url: string;
	events: string[];
	/** Registered while n8n listened for a test event. */
	test: boolean;
}

/** Pages of Stora's endpoint list searched for endpoints left at this node's URL (100 each). */
const MAX_LIST_PAGES = 20;
const PAGE_SIZE = 100;

function store(context: IHookFunctions | IWebhookFunctions): Record<string, Registration> {
	const data = context.getWorkflowStaticData('node') as IDataObject;
	data.endpoints ??= {};
	return data.endpoints as unknown as Record<string, Registration>;
}

/** The URL n8n passes this hook call: the test URL while listening for a test event, else the production one. */
export function hookUrl(context: IHookFunctions): string {
	return context.getNodeWebhookUrl('default') as string;
}

/** The registration made for the URL of this hook call, if any. */
export function registrationFor(context: IHookFunctions): Registration | undefined {
	return store(context)[hookUrl(context)];
}

/** Every registration this static data holds: a delivery is verified against each one's secret. */
export function allRegistrations(context: IHookFunctions | IWebhookFunctions): Registration[] {
	return Object.values(store(context)).filter((entry) => !!entry?.secret);
}

export function remember(context: IHookFunctions, registration: Registration): void {
	store(context)[registration.url] = registration;
}

export function forget(context: IHookFunctions, url: string): void {
	delete store(context)[url];
}

/**
 * Registrations of the same kind (test or production) at another URL: n8n's webhook address changed since they were
 * made (WEBHOOK_URL), so no hook call will name them again.
 */
export function superseded(context: IHookFunctions, test: boolean): Registration[] {
	const url = hookUrl(context);
	return Object.values(store(context)).filter((entry) => entry.url !== url && entry.test === test);
}

/**
 * The IDs of the endpoints Stora holds at `url`, from its endpoint list (documented `page` and `limit` only, following
 * `meta.pagination.next`). Logs when the list is longer than MAX_LIST_PAGES pages, as the search then stopped short.
 */
export async function endpointsAt(context: IHookFunctions, url: string): Promise<string[]> {
	const found: string[] = [];
	let page: number | undefined = 1;
	for (let pages = 0; page !== undefined; pages++) {
		if (pages === MAX_LIST_PAGES) {
			context.logger.warn(
				`Stora holds more than ${MAX_LIST_PAGES * PAGE_SIZE} webhook endpoints; only the first ${MAX_LIST_PAGES * PAGE_SIZE} were searched for ones left at ${url}`,
			);
			break;
		}
		const response = await storaRequest(context, {
			method: 'GET',
			url: '/webhook_endpoints',
			qs: { page, limit: PAGE_SIZE },
		});
		const body = jsonBodyOf(context.getNode(), response);
		for (const endpoint of recordsOf(body))
			if (endpoint.url === url && endpoint.id) found.push(String(endpoint.id));
		page = nextPageOf(body);
	}
	return found;
}
