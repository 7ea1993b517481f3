export * from './paris-time.js';
export * from './french-public-holidays.js';
export * from './opening-hours.js';
export * from './urgent-ticket.js';
export * from './sla-clock.js';
export * from './sla-stats.js';
export * from './home-summary.js';
