import { useEffect, useRef, useState } from 'react';
import { FieldFrame } from './field-frame';

export interface PhotoFieldProps {
  label?: string;
  file: File | null;
  /** Called with the picked file, or null when cleared. The caller checks it. */
  onChange: (file: File | null) => void;
  error?: string | null;
  /** `environment` opens the rear camera directly on phones that support it. */
  capture?: 'environment' | 'user';
  disabled?: boolean;
  hint?: string;
  /** Bumped by the caller to empty the native input (after a reset). */
  resetKey?: number;
}

/** Spec §5: a photo must be an image. The browser's type is a first check; the server checks the bytes. */
export function isImageFile(file: File): boolean {
  return file.type.startsWith('image/');
}

/** Object URL of a file for a preview, revoked when the file changes. */
function useObjectUrl(file: File | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file || typeof URL.createObjectURL !== 'function') {
      setUrl(null);
      return;
    }
    const next = URL.createObjectURL(file);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [file]);
  return url;
}

/** Optional photo with its preview (max height about 10rem, spec §9) and a way to remove it. */
export function PhotoField({ label = 'Photo', file, onChange, error, capture, disabled, hint, resetKey }: PhotoFieldProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  const preview = useObjectUrl(file && isImageFile(file) ? file : null);

  useEffect(() => {
    if (inputRef.current) inputRef.current.value = '';
  }, [resetKey]);

  return (
    <FieldFrame
      label={label}
      hint={hint}
      error={error}
      after={
        preview ? (
          <div className="photo-preview">
            <img src={preview} alt="Aperçu de la photo" className="photo-preview__img" />
            <button
              type="button"
              className="btn btn--ghost"
              disabled={disabled}
              onClick={() => {
                if (inputRef.current) inputRef.current.value = '';
                onChange(null);
              }}
            >
              Retirer la photo
            </button>
          </div>
        ) : null
      }
    >
      {(control) => (
        <input
          {...control}
          ref={inputRef}
          className="input input--file"
          type="file"
          accept="image/*"
          capture={capture}
          disabled={disabled}
          onChange={(event) => onChange(event.target.files?.[0] ?? null)}
        />
      )}
    </FieldFrame>
  );
}
