export * from './export.js';
export * from './decide.js';
