import { TEMPLATE_VARIABLE_GROUPS, templateVariableToken } from '@fsm/contracts';
import { useState } from 'react';

/**
 * 'Variables disponibles' (§2): one collapsible group per entity; a click
 * inserts the variable in double braces at the cursor.
 */
export function VariablesPanel({ onInsert, disabled }: { onInsert: (token: string) => void; disabled: boolean }) {
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set([TEMPLATE_VARIABLE_GROUPS[0]?.key ?? '']));
  const toggle = (key: string) =>
    setOpen((set) => {
      const next = new Set(set);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });

  return (
    <div className="variables">
      {TEMPLATE_VARIABLE_GROUPS.map((group) => {
        const expanded = open.has(group.key);
        const listId = `variables-${group.key}`;
        return (
          <div key={group.key} className="variables__group">
            <button type="button" className="variables__toggle" aria-expanded={expanded} aria-controls={listId} onClick={() => toggle(group.key)}>
              <span className="variables__caret" aria-hidden="true">
                ▾
              </span>
              {group.label}
            </button>
            {expanded ? (
              <ul id={listId} className="variables__list">
                {group.variables.map((variable) => {
                  const token = templateVariableToken(variable.key);
                  return (
                    <li key={variable.key}>
                      <button
                        type="button"
                        className="variables__item"
                        disabled={disabled}
                        aria-label={`Insérer ${token}`}
                        onMouseDown={(event) => event.preventDefault()}
                        onClick={() => onInsert(token)}
                      >
                        <span>{variable.label}</span>
                        <code className="slug">{token}</code>
                      </button>
                    </li>
                  );
                })}
              </ul>
            ) : null}
          </div>
        );
      })}
    </div>
  );
}
