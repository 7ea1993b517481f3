export * from './metiers.js';
export * from './decide.js';
