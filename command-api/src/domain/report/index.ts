export * from './report.js';
export * from './decide.js';
