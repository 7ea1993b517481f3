/** Small inline icons; decorative unless given a label. */

export function WarningIcon({ label, className = 'chip-icon' }: { label?: string; className?: string }) {
  return (
    <svg
      className={className}
      viewBox="0 0 20 20"
      fill="currentColor"
      role={label ? 'img' : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
      focusable="false"
    >
      {label ? <title>{label}</title> : null}
      <path d="M10 1.5 0.8 18h18.4L10 1.5Zm-.9 5.5h1.8l-.3 6h-1.2l-.3-6Zm.9 7.6a1.1 1.1 0 1 1 0 2.2 1.1 1.1 0 0 1 0-2.2Z" />
    </svg>
  );
}
