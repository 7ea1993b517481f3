import { templateEventSchema } from '@fsm/contracts';
import { eventByEvent, type Projector } from '../../projector.js';
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
    const revision = recorded.revision;
    switch (event.type) {
      case 'TemplateCreated':
      case 'TemplateUpdated': {
        const d = event.data;
        const at = event.type === 'TemplateCreated' ? event.data.createdAt : event.data.updatedAt;
        await tx.query(
          `INSERT INTO rm.templates (id, name, content_html, css, created_at, last_revision)
           VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (id) DO UPDATE SET name = $2, content_html = $3, css = $4, last_revision = $6
           WHERE rm.templates.last_revision < $6`,
          [d.templateId, d.name, d.content_html, d.css, at, revision],
        );
        return [d.templateId];
      }
      case 'TemplateDeleted':
        await tx.query(`UPDATE rm.templates SET deleted = true, last_revision = $2 WHERE id = $1 AND last_revision < $2`, [event.data.templateId, revision]);
        return [event.data.templateId];
    }
  }),
};
