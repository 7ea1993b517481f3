import { agencyDemoStep } from './agency-demo-step.js';
import type { DemoSeedStep } from './demo-seed.js';
import { managementDemoStep } from './management-demo-step.js';
import { ticketDemoStep } from './ticket-demo-step.js';

/** The demo data of each area, in order; each step uses the API like a user would. */
export const demoSeedSteps: readonly DemoSeedStep[] = [agencyDemoStep, managementDemoStep, ticketDemoStep];
