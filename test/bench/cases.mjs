// The cases of `npm run bench`, each both ways (the Stora node, and what a user builds from n8n's own nodes or the
// bench's bare fetch loop), every side at least `cfg.reps` times in alternating order. Each writes its rows; what they
// measure and why: test/bench/README.md. One file per case in cases/ (cases 4 and 6 share one, as they share their
// n8n processes), what they share in cases/common.mjs; run.mjs runs them in its own order (4 and 6 first, each in
// n8n processes of its own; then 5d, 2, 1, 3, 3d in one n8n; then 5 in an n8n of its own; then 7 in queue mode).
export { DOCUMENTED, GOALS, UPDATE_LIMITS } from './cases/common.mjs';
export { documentedLimitsCase } from './cases/documentedLimits.mjs';
export { unlimitedCase } from './cases/unlimited.mjs';
export { updatesCase } from './cases/updates.mjs';
export { createsCase } from './cases/creates.mjs';
export { bigListAndStarts } from './cases/bigList.mjs';
export { defaultTriggerCase, lazyTriggerCase } from './cases/triggers.mjs';
export { SHARED_ROWS, sharedAccountCase } from './cases/sharedAccount.mjs';
