import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';

export interface AutocompleteItem {
  id: string;
  /** Matched and shown. */
  label: string;
  /** Shown beside the label (e.g. the town), not matched. */
  detail?: string | null;
}

export interface AutocompleteProps {
  label: string;
  items: readonly AutocompleteItem[];
  selectedId: string | null;
  onSelect: (item: AutocompleteItem | null) => void;
  /** Shown when nothing matches, e.g. 'Aucun client trouvé'. */
  emptyText: string;
  placeholder?: string;
  disabled?: boolean;
  required?: boolean;
  invalid?: boolean;
  loading?: boolean;
  /** Delay before the suggestions close after the field loses focus. */
  closeDelayMs?: number;
  /** Suggestions shown at once; the rest are reached by typing more. */
  maxSuggestions?: number;
}

/** Case-insensitive substring match on the label (spec §2). */
function matchesQuery(label: string, query: string): boolean {
  return label.toLocaleLowerCase('fr-FR').includes(query.trim().toLocaleLowerCase('fr-FR'));
}

/**
 * A search box with suggestions (WAI-ARIA combobox with a listbox popup).
 * Typing clears the current choice, so a cascade below it never keeps a stale
 * parent; arrows move, Enter picks, Escape closes; the list closes a moment
 * after the field loses focus so a click on a suggestion still lands.
 */
export function Autocomplete({
  label,
  items,
  selectedId,
  onSelect,
  emptyText,
  placeholder,
  disabled,
  required,
  invalid,
  loading,
  closeDelayMs = 150,
  maxSuggestions = 50,
}: AutocompleteProps) {
  const id = useId();
  const listId = `${id}-list`;
  const selected = items.find((item) => item.id === selectedId) ?? null;
  const [query, setQuery] = useState(selected?.label ?? '');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const closeTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);

  // Follow a choice made from outside (reset, pre-selection, items loaded late),
  // adjusted while rendering when the choice changes (React's "adjusting state
  // when a prop changes"). A choice cleared while the list is open is the user's
  // own typing (onChange clears it): the text typed stays. Reacting to `open`
  // itself would wipe that text when the list closes, hence the comparison with
  // the choice last followed rather than an effect on every state.
  const selectedLabel = selected?.label ?? null;
  const [followed, setFollowed] = useState({ label: selectedLabel, id: selectedId });
  if (followed.label !== selectedLabel || followed.id !== selectedId) {
    setFollowed({ label: selectedLabel, id: selectedId });
    if (selectedLabel !== null) setQuery(selectedLabel);
    else if (selectedId === null && query && !open) setQuery('');
  }

  useEffect(
    () => () => {
      if (closeTimer.current) clearTimeout(closeTimer.current);
    },
    [],
  );

  const matches = useMemo(() => {
    const found = query.trim() === '' || selectedLabel === query ? items : items.filter((item) => matchesQuery(item.label, query));
    return found.slice(0, maxSuggestions);
  }, [items, query, selectedLabel, maxSuggestions]);

  const choose = (item: AutocompleteItem) => {
    setQuery(item.label);
    setOpen(false);
    onSelect(item);
  };

  const clear = () => {
    setQuery('');
    setOpen(false);
    if (selectedId !== null) onSelect(null);
    inputRef.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        if (!open) setOpen(true);
        else setActive((i) => Math.min(i + 1, matches.length - 1));
        break;
      case 'ArrowUp':
        event.preventDefault();
        setActive((i) => Math.max(i - 1, 0));
        break;
      case 'Enter': {
        // Never submits the surrounding form: Enter picks a suggestion.
        event.preventDefault();
        const item = open ? matches[active] : undefined;
        if (item) choose(item);
        break;
      }
      case 'Escape':
        if (open) {
          event.preventDefault();
          event.stopPropagation();
          setOpen(false);
        }
        break;
      default:
    }
  };

  const activeItem = open ? matches[active] : undefined;

  return (
    <div className="field autocomplete">
      <label className={required ? 'field__label field__label--required' : 'field__label'} htmlFor={id}>
        {label}
      </label>
      <div className="autocomplete__control">
        <input
          ref={inputRef}
          id={id}
          className="input"
          type="text"
          role="combobox"
          autoComplete="off"
          aria-autocomplete="list"
          aria-expanded={open}
          aria-controls={listId}
          aria-activedescendant={activeItem ? `${id}-opt-${activeItem.id}` : undefined}
          aria-invalid={invalid || undefined}
          required={required}
          placeholder={placeholder}
          disabled={disabled}
          value={query}
          onChange={(event) => {
            setQuery(event.target.value);
            setActive(0);
            setOpen(true);
            if (selectedId !== null) onSelect(null);
          }}
          onFocus={() => {
            if (closeTimer.current) clearTimeout(closeTimer.current);
          }}
          onClick={() => setOpen(true)}
          onBlur={() => {
            closeTimer.current = setTimeout(() => setOpen(false), closeDelayMs);
          }}
          onKeyDown={onKeyDown}
        />
        {query && !disabled ? (
          <button type="button" className="autocomplete__clear" aria-label={`Effacer : ${label}`} onClick={clear}>
            <span aria-hidden="true">×</span>
          </button>
        ) : null}
      </div>
      {open && !disabled ? (
        <ul id={listId} role="listbox" aria-label={label} className="autocomplete__list">
          {loading ? (
            <li className="autocomplete__empty">Chargement…</li>
          ) : matches.length === 0 ? (
            <li className="autocomplete__empty">{emptyText}</li>
          ) : (
            matches.map((item, index) => (
              <li
                key={item.id}
                id={`${id}-opt-${item.id}`}
                role="option"
                aria-selected={item.id === selectedId}
                className={index === active ? 'autocomplete__option autocomplete__option--active' : 'autocomplete__option'}
                // mousedown, not click: the input keeps focus and its blur timer never races the choice.
                onMouseDown={(event) => {
                  event.preventDefault();
                  choose(item);
                }}
                onMouseEnter={() => setActive(index)}
              >
                <span>{item.label}</span>
                {item.detail ? <span className="autocomplete__detail">{item.detail}</span> : null}
              </li>
            ))
          )}
        </ul>
      ) : null}
    </div>
  );
}
