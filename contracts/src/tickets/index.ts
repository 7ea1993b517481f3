// ticket-fields.ts stays internal: its builders are reached through the schemas.
export * from './ticket-constants.js';
export * from './ticket-messages.js';
export * from './ticket-dates.js';
export * from './ticket.js';
export * from './ticket-display.js';
export * from './quote-countdown.js';
export * from './deadline-bar.js';
export * from './num-chrono.js';
export * from './ticket-summary.js';
export * from './image-budget.js';
export * from './paging.js';
export * from './quote-rule.js';
