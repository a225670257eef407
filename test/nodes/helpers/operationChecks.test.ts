/**
 * helpers/operationChecks.ts, the Resource parameter's checks over the selected operation: a fixed choice an
 * expression fills must be one of its choices (at the top level and in a collection), before any request. A required
 * field that comes out empty (checkRequired, worded by validation.ts): validation.test.ts.
 */
import { locator, runStora } from '../../helpers/n8n';
import { useSandboxForNode } from '../../helpers/sandboxFixture';

describe('operation checks', () => {
	const fixture = useSandboxForNode();
	const lose = async (lostReason: string) => {
		const [deal] = await fixture.client.state('deals');
		return await runStora({
			credentials: fixture.credentials(),
			parameters: {
				resource: 'deal',
				operation: 'lose',
				dealId: locator(String(deal.id)),
				lostReason,
			},
		});
	};

	it('refuses a choice an expression gives that is not in the list, naming the field and the choices', async () => {
		const result = await lose('={{ "too_far" }}');
		expect(result.error?.message).toBe('Lost Reason: "too_far" is not one of the choices');
		expect(String(result.error?.description)).toContain(
			'Choose one of: "accessibility_concern", "better_deal_elsewhere", "chose_competitor", "price_concerns".',
		);
		expect(await fixture.client.requests()).toEqual([]);
	});

	it('refuses a choice whose expression gives nothing, as not one of the choices', async () => {
		const result = await lose('={{ "" }}');
		expect(result.error?.message).toBe('Lost Reason: (empty) is not one of the choices');
		expect(await fixture.client.requests()).toEqual([]);
	});

	it('checks a choice inside a collection, naming the collection and the member', async () => {
		const result = await runStora({
			credentials: fixture.credentials(),
			parameters: {
				resource: 'contact',
				operation: 'create',
				email: 'ada@example.com',
				additionalFields: { type: '={{ "alien" }}' },
			},
		});
		expect(result.error?.message).toBe(
			'Additional Fields → Type: "alien" is not one of the choices',
		);
		expect(await fixture.client.requests()).toEqual([]);
	});

	it('sends a choice from the list as it is', async () => {
		const result = await lose('={{ "chose_competitor" }}');
		expect(result.error).toBeUndefined();
		const [post] = await fixture.client.requests();
		expect(post.body).toMatchObject({ lost_reason: 'chose_competitor' });
	});
});
