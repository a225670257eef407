/**
 * helpers/scopes.ts: the scopes each operation needs, held to the sandbox's routes for every operation, and the line a
 * 403 adds: the scopes the operation needs, those Stora's message names, and where to add them.
 */
import {
	ALL_SCOPES,
	missingScopeHint,
	SCOPE_BY_OPERATION,
	scopeNeededFor,
} from '../../../nodes/Stora/helpers/scopes';
import { locator, runStora, tokenCredentials } from '../../helpers/n8n';
import { nodeOperations, sameRoute } from '../../helpers/operations';
import { useSandboxForNode } from '../../helpers/sandboxFixture';

describe('scopes per operation', () => {
	const fixture = useSandboxForNode();
	const client = () => fixture.client;

	it('knows, for every operation of the node, the scopes its endpoint demands', () => {
		const routes = fixture.sandbox.core.router.routes;
		const checked: string[] = [];
		const problems: string[] = [];
		for (const { resource, operation, method, path } of nodeOperations()) {
			const scopes = SCOPE_BY_OPERATION[resource]?.[operation];
			if (!Array.isArray(scopes)) {
				problems.push(
					`${resource} → ${operation}: no scopes; add SCOPE_BY_OPERATION.${resource}.${operation} in nodes/Stora/helpers/scopes.ts`,
				);
				continue;
			}
			if (!path) continue;
			const route = routes.find(
				(candidate) => candidate.method === method && sameRoute(candidate.pattern, path),
			);
			if (!route) {
				problems.push(
					`${resource} → ${operation}: the sandbox has no route ${method} ${path}; add it in sandbox/resources/<family>/ (docs/ARCHITECTURE.md, "How to add", step 4)`,
				);
				continue;
			}
			const ours = [...scopeNeededFor(resource, operation)].sort();
			const its = [...route.options.scopes].sort();
			if (JSON.stringify(ours) !== JSON.stringify(its)) {
				problems.push(
					`${resource} → ${operation}: helpers/scopes.ts asks for ${ours.join(' ') || 'none'}, the sandbox route ${route.pattern} demands ${its.join(' ') || 'none'}; make them the scope the docs name`,
				);
			}
			checked.push(`${resource}.${operation}`);
		}
		expect(problems).toEqual([]);
		expect(checked.length).toBeGreaterThan(80);
		const inTable = Object.values(SCOPE_BY_OPERATION).flatMap((byOperation) =>
			Object.values(byOperation).flat(),
		);
		expect(inTable.filter((name) => !ALL_SCOPES.includes(name))).toEqual([]);
	});

	it('words the scope a 403 asks for, with the scopes Stora names and whether the default Scope has them', async () => {
		const [deal] = await client().state('deals');
		const token = await client().token(['public.deal:read']);
		const result = await runStora({
			credentials: tokenCredentials(fixture.sandbox.url, token),
			parameters: {
				resource: 'deal',
				operation: 'update',
				dealId: locator(deal.id),
				updateFields: { name: 'Renamed' },
			},
		});
		expect(result.error?.message).toContain('[forbidden]');
		expect(missingScopeHint('deal', 'update', 'PATCH', result.error?.message)).toBe(
			'This operation needs the scope public.deal:write. Add it to the access token in Stora BackOffice (Settings → Public API), or to the Scope of the Stora OAuth2 credential and reconnect.',
		);
		expect(missingScopeHint('opportunity', 'associateDeal', 'POST')).toBe(
			'This operation needs the scopes public.opportunity:write and public.deal:write. Add them to the access token in Stora BackOffice (Settings → Public API), or to the Scope of the Stora OAuth2 credential and reconnect (public.opportunity:write is not in its default Scope).',
		);
		expect(
			missingScopeHint(
				'deal',
				'get',
				'GET',
				'The access token is missing the required scope: public.site:read',
			),
		).toContain('Stora also names public.site:read: expanding a record needs');
		// Requests outside an operation (a list picker, the trigger) fall back to the API's naming rule.
		expect(scopeNeededFor('webhookEndpoint', undefined, 'POST')).toEqual([
			'public.webhook_endpoint:write',
		]);
		expect(scopeNeededFor('site', 'nothing', 'GET')).toEqual(['public.site:read']);
		expect(missingScopeHint('', undefined, 'GET')).toBeUndefined();
		// A list picker's request: only what Stora names.
		expect(
			missingScopeHint('', undefined, undefined, 'missing the required scope: public.site:read'),
		).toMatch(/^Stora names the missing scope public\.site:read\. Add it to the access token/);
	});

	describe('missing scopes', () => {
		it('says which scope the operation needs when Stora answers 403', async () => {
			const token = await client().token(['public.site:read']);
			const result = await runStora({
				credentials: tokenCredentials(fixture.sandbox.url, token),
				parameters: { resource: 'contact', operation: 'getAll', limit: 1 },
			});
			expect((result.error as { httpCode?: string }).httpCode).toBe('403');
			expect(result.error?.description).toContain(
				'This operation needs the scope public.contact:read.',
			);
			expect(result.error?.description).not.toContain(token);
		});
	});
});
