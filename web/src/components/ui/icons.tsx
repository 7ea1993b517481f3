/** Small inline icons; decorative unless given a label. */

interface IconProps {
  label?: string;
  className?: string;
}

/** A 20×20 icon drawn by one path: an image named `label`, or hidden from assistive technologies. */
function PathIcon({ label, className = 'chip-icon', path }: IconProps & { path: string }) {
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
      <path d={path} />
    </svg>
  );
}

export function WarningIcon(props: IconProps) {
  return <PathIcon {...props} path="M10 1.5 0.8 18h18.4L10 1.5Zm-.9 5.5h1.8l-.3 6h-1.2l-.3-6Zm.9 7.6a1.1 1.1 0 1 1 0 2.2 1.1 1.1 0 0 1 0-2.2Z" />;
}

/** A document with a clock: a quote waiting to be registered. */
export function QuotePendingIcon(props: IconProps) {
  return (
    <PathIcon
      {...props}
      path="M4 1.5h8l4 4V18.5H4V1.5Zm7.2 1.6V6.3h3.2L11.2 3.1ZM6 9h8v1.4H6V9Zm0 3h5v1.4H6V12Zm7.5.2a2.8 2.8 0 1 0 0 5.6 2.8 2.8 0 0 0 0-5.6Zm-.5 1h1v1.6l1.1.7-.5.8-1.6-1v-2.1Z"
    />
  );
}
