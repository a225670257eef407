/**
 * Texts a newcomer reads first: a tool's error as a model reads it (sentences naming the argument), the editor's note
 * on a bad ID (with an example ID that passes), and the Stora Trigger's hint (each way a listen ends).
 */
import type { IDataObject, INodeParameters, INodeProperties } from 'n8n-workflow';

import { Stora } from '../../nodes/Stora/Stora.node';
import { hints } from '../../nodes/StoraTrigger/hints';
import { runStoraTool } from '../helpers/aiTool';
import { locator, runStora } from '../helpers/n8n';
import { parameterIssuesFor } from '../helpers/parameterIssues';
import { useSandboxForNode } from '../helpers/sandboxFixture';

const fromAI = (key: string, description: string, type = 'string') =>
	`={{ $fromAI('${key}', \`${description}\`, '${type}') }}`;
const description = new Stora().description;

describe('texts a newcomer reads first', () => {
	describe('a tool error, as the model reads it', () => {
		const fixture = useSandboxForNode();
		const run = async (parameters: IDataObject, calls: IDataObject[]) =>
			await runStoraTool({
				parameters: parameters as never,
				credentials: fixture.credentials(),
				calls,
			});

		it('reads as sentences: the argument and its value, what it takes, and that nothing was sent', async () => {
			const id = await run(
				{
					resource: 'contact',
					operation: 'get',
					contactId: locator(fromAI('contactId', 'The contact ID, con_...')),
				},
				[{ contactId: '12345' }],
			);
			const limit = await run(
				{
					resource: 'contact',
					operation: 'getAll',
					limit: fromAI('limit', 'How many, 1 to 100', 'number'),
				},
				[{ limit: 500 }],
			);
			const title = await run(
				{ resource: 'task', operation: 'create', title: fromAI('title', 'Short title') },
				[{ title: ' ' }],
			);
			const texts = [id, limit, title].map((tool) => tool.calls[0].error ?? '');
			expect(texts.map((text) => text.split('\n')[0])).toEqual([
				'The argument contactId, "12345", is not a contact ID',
				'The argument limit, 500, is out of range',
				'The argument title is empty',
			]);
			for (const text of texts) expect(text).toMatch(/nothing was sent to Stora\.$/);
			expect(texts[0]).toContain('A contact ID starts with "con_" (for example con_a1b2c3)');
			expect(await fixture.client.requests()).toEqual([]);
		});

		it("keeps the editor's wording outside tool use", async () => {
			const result = await runStora({
				credentials: fixture.credentials(),
				parameters: { resource: 'contact', operation: 'get', contactId: locator('={{ "12345" }}') },
			});
			expect(result.error?.message).toBe('Contact: "12345" is not a contact ID');
		});
	});

	it('the note n8n shows under a bad ID gives an example ID, and that example passes', () => {
		const issuesFor = parameterIssuesFor;

		const locators = description.properties.filter(
			(property: INodeProperties) =>
				property.type === 'resourceLocator' &&
				property.modes?.some((mode) => mode.name === 'id' && mode.validation?.length) &&
				property.displayOptions?.show?.operation,
		);
		expect(locators.length).toBeGreaterThan(30);
		for (const property of locators) {
			const shown = Object.fromEntries(
				Object.entries(property.displayOptions?.show ?? {}).map(([key, values]) => [
					key,
					(values as unknown[])[0],
				]),
			) as INodeParameters;
			const [issue] =
				issuesFor({ ...shown, [property.name]: { __rl: true, mode: 'id', value: 'wrong_1' } })[
					property.name
				] ?? [];
			const example = /for example (\S+)$/.exec(issue ?? '')?.[1];
			expect({ name: property.name, issue, example: Boolean(example) }).toEqual({
				name: property.name,
				issue: expect.stringMatching(/ID starts with "/),
				example: true,
			});
			expect({
				name: property.name,
				example,
				issues: issuesFor({
					...shown,
					[property.name]: { __rl: true, mode: 'id', value: example },
				})[property.name],
			}).toEqual({
				name: property.name,
				example,
				issues: undefined,
			});
		}
	});

	it("the Stora Trigger's hint says when its test endpoint goes: each way n8n ends a listen", () => {
		const ways = /when the listen ends \(([^)]+)\)/.exec(hints[0].message)?.[1] ?? '';
		for (const way of ['an event', 'Stop Listening', 'timeout', 'a new listen'])
			expect({ way, ways }).toEqual({ way, ways: expect.stringContaining(way) });
	});
});
