/**
 * helpers/parameters.ts, the parameter names the run reads: each is a parameter of the Stora node, so none is read
 * by a name the descriptions no longer give (it would read its fallback without a word).
 */
import { PARAMETER } from '../../../nodes/Stora/helpers/parameters';
import { Stora } from '../../../nodes/Stora/Stora.node';

describe('parameters', () => {
	it('names only parameters the Stora node has', () => {
		const names = new Set(new Stora().description.properties.map((property) => property.name));
		expect(Object.values(PARAMETER).filter((name) => !names.has(name))).toEqual([]);
	});
});
