/** Product categories: list and get. The rendered category has only `id` and `name` (as in the docs). */
import type { ApiRecord, ResourceModule } from '../../core/types';
import { registerReadable, type SeedWriter } from './shared';

const render = (record: ApiRecord): ApiRecord =>
	({ id: record.id, name: record.name }) as unknown as ApiRecord;

export const productCategories: ResourceModule = {
	register(api) {
		registerReadable(
			api,
			{
				name: 'product_categories',
				key: 'product_category',
				prefix: 'pcat_',
				scope: 'product_category',
				render,
			},
			{
				path: 'product_categories',
				param: 'product_category_id',
				spec: { sortBy: ['created_at'] },
			},
		);
	},
};

/** Demo seed: three product categories. */
export function seedProductCategories(w: SeedWriter): ApiRecord[] {
	const { core, put, stamp } = w;
	return ['Packing supplies', 'Security', 'Services'].map((name, i) =>
		put('product_categories', { id: core.newId('pcat_'), name, ...stamp(500 - i) }),
	);
}
