// What tests, the benchmark and the fault tests of other workspaces may use of
// workers beyond its public index: sample images, the export processor alone,
// an SMTP catcher and event fixtures of a closed ticket.
export { PRODUCE_EXPORT_JOB, produceExport } from '../exports/export-processor.js';
export { photoPng, pngChunk, signaturePng } from '../reports/sample-images.js';
export { startSmtpCatcher, type SmtpCatcher } from '../../test/support/smtp-catcher.js';
export { appendAgence, appendClosedTicket, appendEmailRequests, appendTemplate, type ClosedTicket } from '../../test/support/ticket-fixture.js';
export { pdfText } from '../../test/support/pdf-text.js';
