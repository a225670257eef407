import { RateLimitRegistry } from './registry';

/**
 * The process's registry, where every request of the package queues: n8n loads each node file of the package with
 * `require`, so the action node, both triggers and the tool variants share this module and its registry.
 */
export const rateLimits = new RateLimitRegistry();
