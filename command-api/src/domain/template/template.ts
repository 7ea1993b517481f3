import type { TemplateEvent } from '@fsm/contracts';

/** The document template aggregate (`template-<id>`). A deleted one keeps its facts so its id cannot be reused. */
interface TemplateFacts {
  templateId: string;
  name: string;
  content_html: string;
  css: string;
}

export type TemplateState = { status: 'nonexistent' } | (TemplateFacts & { status: 'active' }) | (TemplateFacts & { status: 'deleted' });

export const templateInitialState: TemplateState = { status: 'nonexistent' };

/** Events that do not fit the state (only a tampered log has them) leave it unchanged. */
export function evolveTemplate(state: TemplateState, event: TemplateEvent): TemplateState {
  switch (event.type) {
    case 'TemplateCreated': {
      if (state.status !== 'nonexistent') return state;
      const { templateId, name, content_html, css } = event.data;
      return { status: 'active', templateId, name, content_html, css };
    }
    case 'TemplateUpdated': {
      if (state.status !== 'active') return state;
      const { name, content_html, css } = event.data;
      return { ...state, name, content_html, css };
    }
    case 'TemplateDeleted':
      return state.status === 'active' ? { ...state, status: 'deleted' } : state;
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}
