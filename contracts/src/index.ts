export * from './errors.js';
export * from './config/env.js';
export * from './auth/index.js';
export * from './calendar/index.js';
export * from './tickets/index.js';
export * from './management/index.js';
export * from './reports/index.js';
export * from './exports/index.js';
