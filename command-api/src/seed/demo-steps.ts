import type { DemoSeedStep } from './demo-seed.js';

/** The demo data of each area, in order; each step uses the API like a user would. */
export const demoSeedSteps: readonly DemoSeedStep[] = [];
