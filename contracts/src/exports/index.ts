export * from './export-events.js';
