/** The family of every resource, read from its row of RESOURCES (resources.ts says what a family decides). */
import { FAMILIES, RESOURCES, type Family } from './resources';

export { FAMILIES, type Family };

export const FAMILY_OF_RESOURCE: Record<string, Family> = Object.fromEntries(
	Object.entries(RESOURCES).map(([resource, facts]) => [resource, facts.family]),
);
