import { processWide } from '../../helpers/processWide';
import { RateLimitRegistry } from './registry';

/** The process-wide registry, found by every copy of this module: every request of the package queues here. */
export const rateLimits: RateLimitRegistry = processWide('rateLimitRegistry', 2, () => new RateLimitRegistry());
