/** Products: list, get, and POST /products/:id/base_price. */
import type { ResourceModule } from '../../core/types';
import { registerBasePrice, registerReadable } from './shared';

export const products: ResourceModule = {
	register(api) {
		registerReadable(
			api,
			{ name: 'products', key: 'product', prefix: 'prod_', scope: 'product' },
			{ path: 'products', param: 'product_id', spec: { sortBy: ['created_at'] } },
		);
		registerBasePrice(api, { path: 'products', param: 'product_id', collection: 'products', scope: 'product' });
	},
};
