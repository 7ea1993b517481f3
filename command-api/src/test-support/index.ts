// What tests, the benchmark and the fault tests of other workspaces may use of
// command-api beyond its public index: commands and deciders to write a world
// or a realistic log, and the pieces an in-process app is built from.
export { migrateAuth } from '../auth/credentials.js';
export { commandContext } from '../commands/command-context.js';
export { execute, type Actor, type CommandContext } from '../commands/execute.js';
export { handleCreateStaffUser } from '../commands/user-commands.js';
export type { Decider, DomainEvent } from '../domain/decider.js';
export { agenceDecider } from '../domain/agence/index.js';
export { clientDecider } from '../domain/client/index.js';
export { installationDecider } from '../domain/installation/index.js';
export { metiersDecider } from '../domain/metier/index.js';
export { siteDecider } from '../domain/site/index.js';
export { templateDecider } from '../domain/template/index.js';
export { ticketDecider, type TicketCommand, type TicketState } from '../domain/ticket/index.js';
export { userDecider } from '../domain/user/index.js';
export { appendInstallationTree } from './installation-tree.js';
export { DEMO_METIERS } from '../seed/management-demo-step.js';
export { DEMO_SIGNATURE_DATA_URL } from '../seed/ticket-demo-step.js';
