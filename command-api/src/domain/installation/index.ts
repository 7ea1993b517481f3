export * from './installation.js';
export * from './decide.js';
