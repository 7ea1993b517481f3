export * from './report-events.js';
export * from './report-requests.js';
export * from './template-preview.js';
