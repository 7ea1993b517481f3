import { Dialog } from './dialog';

/** A photo at full size over the page (spec §2 "thumbnail ... opens full size in an overlay"). */
export function PhotoOverlay({ src, alt, onClose }: { src: string | null; alt: string; onClose: () => void }) {
  return (
    <Dialog open={src !== null} title="Photo" onClose={onClose} className="dialog--photo">
      {src ? (
        <a href={src} target="_blank" rel="noreferrer" className="photo-overlay__link">
          <img className="photo-overlay__img" src={src} alt={alt} />
        </a>
      ) : null}
    </Dialog>
  );
}
