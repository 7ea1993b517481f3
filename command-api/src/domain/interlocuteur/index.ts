export * from './interlocuteur.js';
export * from './decide.js';
