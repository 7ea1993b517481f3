import { templateEventSchema } from '@fsm/contracts';
import { eventByEvent, type Projector } from '../../projector.js';
import { aggregateRow } from '../aggregate-rows.js';
import { domainEvent } from '../domain-event.js';

/** Document templates (report layouts), one row each. */
export const templatesProjector: Projector = {
  name: 'templates',
  version: 1,
  handles: ['TemplateCreated', 'TemplateUpdated', 'TemplateDeleted'],
  setupSql: `
    CREATE TABLE IF NOT EXISTS rm.templates (
      id uuid PRIMARY KEY,
      name text NOT NULL,
      content_html text NOT NULL,
      css text NOT NULL,
      deleted boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL,
      last_revision int NOT NULL
    );
    CREATE INDEX IF NOT EXISTS templates_name ON rm.templates (lower(name), id) WHERE NOT deleted;`,
  apply: eventByEvent(async (tx, recorded) => {
    const event = domainEvent(templateEventSchema, recorded);
    const row = aggregateRow(tx, 'templates', recorded.revision);
    switch (event.type) {
      case 'TemplateCreated':
      case 'TemplateUpdated': {
        const d = event.data;
        const at = event.type === 'TemplateCreated' ? event.data.createdAt : event.data.updatedAt;
        await row.upsert(d.templateId, { name: d.name, content_html: d.content_html, css: d.css }, { created_at: at });
        return [d.templateId];
      }
      case 'TemplateDeleted':
        await row.markDeleted(event.data.templateId);
        return [event.data.templateId];
    }
  }),
};
