export * from './ticket.js';
export * from './decide.js';
export { requireRegistrationTime } from './ticket-checks.js';
export { requireVisitTimes, type TicketVisitInput } from './ticket-visit.js';
