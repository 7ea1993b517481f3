export * from './report-events.js';
export * from './report-requests.js';
