export * from './ticket.js';
export * from './decide.js';
