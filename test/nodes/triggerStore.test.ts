/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test under test/, never published */
/**
 * Stora Trigger, issue 53: the store of accepted events on its own (nodes/Stora/helpers/signature.ts). Its clock is a
 * parameter, so a day passes here without waiting for it; the same rules over real HTTP are in triggerReplay.test.ts,
 * and in real n8n in test/e2e/checks/concurrentDeliveries.mjs and hungDelivery.mjs.
 */
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';

import { AcceptedEvents, PENDING_CLAIM_SECONDS, SIGNATURE_TOLERANCE_SECONDS } from '../../nodes/Stora/helpers/signature';
import { printFigure } from '../helpers/figures';

describe('Stora Trigger: the memory of accepted events', () => {
	const t = 1_750_000_000;
	const day = SIGNATURE_TOLERANCE_SECONDS;
	/** A delivery n8n stored: claimed, then answered 2xx. */
	const accept = (store: AcceptedEvents, endpoint: string, key: string, signedAt: number, now: number) => {
		const claimed = store.claim(endpoint, key, signedAt, now);
		if (claimed) store.settle(endpoint, key, true, now);
		return claimed;
	};

	it('remembers an event until its latest signature leaves the window, then forgets it', () => {
		const store = new AcceptedEvents(10);
		expect(accept(store, 'we_a', 'evt_1', t, t)).toBe(true);
		expect(accept(store, 'we_a', 'evt_1', t + 600, t + 600)).toBe(false); // a retry signed 10 min later
		expect(accept(store, 'we_b', 'evt_1', t, t + 600)).toBe(true); // another endpoint
		expect(accept(store, 'we_a', 'evt_1', t, t + day + 300)).toBe(false); // kept for the later signature's window
		expect(accept(store, 'we_a', 'evt_2', t + day + 601, t + day + 601)).toBe(true);
		expect(store.size).toBe(1); // evt_1 of both endpoints expired and were dropped
		expect(accept(store, 'we_a', 'evt_1', t + day + 601, t + day + 601)).toBe(true);
	});

	it('at the cap drops expired entries before forgetting any live one', () => {
		const store = new AcceptedEvents(3);
		accept(store, 'we_a', 'evt_1', t + 100, t + 100); // the oldest accepted, but it lives 100 s longer
		for (const id of ['evt_2', 'evt_3']) accept(store, 'we_a', id, t, t);
		expect(accept(store, 'we_a', 'evt_4', t + 100, t + day + 50)).toBe(true);
		expect([store.size, store.forgottenForRoom, store.takeCapWarning()]).toEqual([2, 0, false]);
		expect(accept(store, 'we_a', 'evt_1', t, t + day + 50)).toBe(false);
		accept(store, 'we_a', 'evt_5', t + 100, t + day + 50);
		accept(store, 'we_a', 'evt_6', t + 100, t + day + 50); // full of live entries: the oldest (evt_1) goes
		expect([store.size, store.forgottenForRoom, store.takeCapWarning(), store.takeCapWarning()]).toEqual([3, 1, true, false]);
		expect(accept(store, 'we_a', 'evt_1', t + 100, t + day + 50)).toBe(true);
	});

	it('a claim waits for n8n’s answer at most PENDING_CLAIM_SECONDS: a later retry is then new, and the hung answer changes nothing', () => {
		const store = new AcceptedEvents(10);
		expect(store.claim('we_a', 'evt_1', t, t)).toBe(true);
		// Stora's first retry, a minute later: still waiting for n8n's answer (the trigger answers 503).
		expect([store.claim('we_a', 'evt_1', t + 60, t + 60), store.isPending('we_a', 'evt_1', t + 60)]).toEqual([false, true]);
		// Past the bound: the claim is taken as hung; the retry starts the execution.
		const later = t + PENDING_CLAIM_SECONDS;
		expect(store.isPending('we_a', 'evt_1', later)).toBe(false);
		expect(store.claim('we_a', 'evt_1', later, later)).toBe(true);
		// The first delivery's answer comes at last: it is not the claim that waits now.
		store.settle('we_a', 'evt_1', false, t);
		expect(store.isPending('we_a', 'evt_1', later + 1)).toBe(true);
		store.settle('we_a', 'evt_1', true, later);
		expect([store.claim('we_a', 'evt_1', later + 5, later + 5), store.isPending('we_a', 'evt_1', later + 5)]).toEqual([false, false]);
	});

	it('100 deliveries of one event at once: one claim; a duplicate after it is stored, exactly one new claim after it fails', () => {
		const store = new AcceptedEvents(10);
		const outcomes = Array.from({ length: 100 }, () => store.claim('we_a', 'evt_1', t, t));
		expect(outcomes.filter(Boolean)).toHaveLength(1);
		expect(store.isPending('we_a', 'evt_1', t)).toBe(true); // the 99 others are answered 503
		store.settle('we_a', 'evt_1', true, t);
		expect(store.claim('we_a', 'evt_1', t + 1, t + 1)).toBe(false);
		expect(store.isPending('we_a', 'evt_1', t + 1)).toBe(false); // duplicate

		expect(store.claim('we_a', 'evt_2', t, t)).toBe(true);
		store.settle('we_a', 'evt_2', false, t); // n8n could not store it: withdrawn
		const retries = Array.from({ length: 100 }, () => store.claim('we_a', 'evt_2', t + 60, t + 60));
		expect(retries.filter(Boolean)).toHaveLength(1);
	});

	it('at the cap never drops a pending claim, nor a younger entry before an older settled one', () => {
		const store = new AcceptedEvents(3);
		// An event whose first delivery n8n could not store: withdrawn, its old slot left at the front.
		store.claim('we_a', 'evt_x', t, t);
		store.settle('we_a', 'evt_x', false, t);
		accept(store, 'we_a', 'evt_y', t, t + 1);
		accept(store, 'we_a', 'evt_z', t, t + 2);
		// Stora's retry of it: a new claim, waiting for n8n's answer while the store fills.
		expect(store.claim('we_a', 'evt_x', t + 60, t + 60)).toBe(true);
		expect(accept(store, 'we_a', 'evt_w', t + 61, t + 61)).toBe(true);
		// The oldest settled entry (evt_y) went, not the pending retry claim.
		expect(store.isPending('we_a', 'evt_x', t + 62)).toBe(true);
		expect(store.claim('we_a', 'evt_y', t + 62, t + 62)).toBe(true);
		expect(store.claim('we_a', 'evt_x', t + 62, t + 62)).toBe(false);
		// All pending: the store holds them all rather than drop one.
		const busy = new AcceptedEvents(2);
		for (const id of ['evt_1', 'evt_2', 'evt_3']) expect(busy.claim('we_a', id, t, t)).toBe(true);
		expect([busy.size, busy.forgottenForRoom]).toEqual([3, 0]);
		for (const id of ['evt_1', 'evt_2', 'evt_3']) expect(busy.claim('we_a', id, t + 1, t + 1)).toBe(false);
	});

	it('a waiting claim at the front keeps its place: passed over at the cap, then, once answered, the oldest', () => {
		const store = new AcceptedEvents(3);
		expect(store.claim('we_a', 'evt_a', t, t)).toBe(true); // n8n has not answered it yet
		accept(store, 'we_a', 'evt_b', t, t + 1);
		accept(store, 'we_a', 'evt_c', t, t + 2);
		accept(store, 'we_a', 'evt_d', t, t + 3); // full: evt_b goes, the waiting evt_a stays
		expect([store.isPending('we_a', 'evt_a', t + 3), store.forgottenForRoom]).toEqual([true, 1]);
		store.settle('we_a', 'evt_a', true, t);
		accept(store, 'we_a', 'evt_e', t, t + 5); // evt_a, claimed first, goes before the younger evt_c
		expect(store.forgottenForRoom).toBe(2);
		expect(accept(store, 'we_a', 'evt_c', t, t + 6)).toBe(false);
		expect(accept(store, 'we_a', 'evt_a', t, t + 6)).toBe(true);
	});

	it('a claim n8n never answers is held for PENDING_CLAIM_SECONDS only: then dropped at expiry or for room, and its late answer changes nothing', () => {
		const expiring = new AcceptedEvents(10);
		expect(expiring.claim('we_a', 'evt_hung', t, t)).toBe(true);
		expiring.claim('we_a', 'evt_next', t + day + 1, t + day + 1);
		expect(expiring.size).toBe(1); // its window is over and it waits no more: gone
		expiring.settle('we_a', 'evt_hung', true, t);
		expect(expiring.claim('we_a', 'evt_hung', t + day + 2, t + day + 2)).toBe(true);

		const full = new AcceptedEvents(2);
		full.claim('we_a', 'evt_hung', t, t);
		accept(full, 'we_a', 'evt_b', t, t + 1);
		// Inside the bound the hung claim is passed over (evt_b goes); past it, it is the oldest entry and goes first.
		accept(full, 'we_a', 'evt_c', t, t + PENDING_CLAIM_SECONDS - 1);
		expect([full.isPending('we_a', 'evt_hung', t + PENDING_CLAIM_SECONDS - 1), full.forgottenForRoom]).toEqual([true, 1]);
		accept(full, 'we_a', 'evt_d', t, t + PENDING_CLAIM_SECONDS);
		expect([full.size, full.forgottenForRoom]).toEqual([2, 2]);
		expect(accept(full, 'we_a', 'evt_c', t, t + PENDING_CLAIM_SECONDS)).toBe(false);
		full.settle('we_a', 'evt_hung', true, t);
		expect(full.claim('we_a', 'evt_hung', t, t + PENDING_CLAIM_SECONDS + 1)).toBe(true);
	});

	// docs/usage.md states it: "up to 50,000 events, at most 10 MiB".
	const STATED_MIB_AT_BOUND = 10;
	it('memory per remembered event, at the bound', () => {
		// V8's collector from a test: the flag, then the function from a fresh context.
		v8.setFlagsFromString('--expose-gc');
		const gc = runInNewContext('gc') as () => void;
		const heap = () => {
			gc();
			return process.memoryUsage().heapUsed;
		};
		const store = new AcceptedEvents();
		const before = heap();
		for (let i = 0; i < store.capacity; i++) accept(store, 'we_0123456789abcdef', `evt_${String(i).padStart(20, '0')}`, t, t);
		const perEvent = (heap() - before) / store.capacity;
		const atBound = (perEvent * store.capacity) / 2 ** 20;
		printFigure(`trigger/acceptedEvents: ${Math.round(perEvent)} bytes per remembered event (event IDs of 24 characters), ${atBound.toFixed(1)} MiB at the bound of ${store.capacity.toLocaleString('en')} (stated: at most ${STATED_MIB_AT_BOUND} MiB)`);
		expect(store.size).toBe(store.capacity);
		expect(atBound).toBeLessThanOrEqual(STATED_MIB_AT_BOUND);
	});
});
