/*
 * What a report shows, as plain data: built by the job from the log and the
 * read models, then handed to the render thread (structured clone), which
 * only lays it out. Labels (dates, durations) are already French strings.
 * This file and the layout files import no workspace package but the image
 * budget (a file without imports), so the render thread loads them alone.
 */
import { imageHeaderSize, isImageWithinBudget, type ImageSize } from '@fsm/contracts/image-budget';

export interface ReportSignatureFacts {
  /** PNG or JPEG bytes (maybe too large to embed: reportImageUse); null when the stored file is missing or not a PNG or JPEG. */
  image: Uint8Array | null;
  signerName: string;
  /** 'Client' or 'Technicien', with a precision when known. */
  role: string;
  /** '02/03/2026 à 11:00' (Europe/Paris). */
  signedAtLabel: string;
}

export interface ReportAddress {
  adresse: string;
  codePostal: string;
  ville: string;
}

export interface ReportFacts {
  reportId: string;
  filename: string;
  /** null: the closure's report; else the re-intervention's rank (1, 2, ...). */
  interventionOrdinal: number | null;
  agence: (ReportAddress & { nom: string; telephone: string }) | null;
  ticket: {
    numChrono: string;
    createdAtLabel: string;
    probleme: string;
    urgent: boolean;
    requester: { prenom: string; nom: string; email: string; telephone: string };
  };
  client: ReportAddress & { nom: string };
  site: ReportAddress & { nom: string; interlocuteur: string };
  installation: { nom: string; type: string; description: string; interlocuteur: string };
  visit: {
    /** Who did the work. */
    technicien: { prenom: string; nom: string };
    /** Who recorded the visit and drew the technician's signature, when not the technician (issue 32); else null. */
    saisiPar: { prenom: string; nom: string } | null;
    arriveAtLabel: string;
    closedAtLabel: string;
    tempsTrajet: string;
    /** '1 h 05' from arrival to departure. */
    dureeSurSite: string;
    etatArrivee: string;
    etatDepart: string;
    constat: string;
    remarque: string;
    devis: boolean;
  };
  photo: Uint8Array | null;
  signatures: { client: ReportSignatureFacts; technicien: ReportSignatureFacts };
  /** The PDF's CreationDate: the visit's recording instant, so a re-render gives the same bytes. */
  creationDate: string;
  /** '02/03/2026' */
  issuedOnLabel: string;
}

/** Keys under which images are handed to pdfmake (`images` dictionary); templates reference them through variables. */
export const REPORT_IMAGE_KEYS = {
  photo: 'report-image-photo',
  signatureClient: 'report-image-signature-client',
  signatureTechnicien: 'report-image-signature-technicien',
} as const;

/**
 * Private-use characters around every variable's value in a filled template
 * (load-report's fillReportTemplate): the renderer tells from them a line
 * made of a label and empty variables ('Téléphone : ' with no phone), leaves
 * that line out, then removes them all. Never printed, never in a value.
 */
export const TEMPLATE_VALUE_OPEN = '\uE000';
export const TEMPLATE_VALUE_CLOSE = '\uE001';

export interface RenderInput {
  facts: ReportFacts;
  /** An agency template already filled (variables replaced, unknown ones removed); null: the built-in layout. */
  templateHtml: string | null;
}

/** PNG or JPEG (what pdfkit embeds), decided from the magic bytes. */
export function isPngOrJpeg(bytes: Uint8Array | null | undefined): bytes is Uint8Array {
  if (!bytes || bytes.length < 8) return false;
  const png = bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47;
  const jpeg = bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
  return png || jpeg;
}

/** Printed where an image over the budget would have been: the log may hold images sent before the API checked sizes. */
export const IMAGE_TOO_LARGE_TEXT = 'Image trop grande pour être incluse';

/**
 * What pdfkit does not copy as it is, it decodes whole (png-js, in
 * JavaScript): a PNG with alpha, a transparent palette or interlacing. Its
 * raw pixels are inflated, then copied once or twice more, so they are held
 * to 64 MiB, a 16 Mpx RGBA picture (a signature is 2 MB, a 5K screen
 * capture 59 MB). JPEGs and opaque PNGs are copied into the PDF undecoded.
 */
export const PNG_DECODE_MAX_BYTES = 64 * 1024 * 1024;

const PNG_CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

function pngHasChunk(png: Uint8Array, wanted: string): boolean {
  for (let at = 8; at + 8 <= png.length; ) {
    const length = ((png[at]! << 24) | (png[at + 1]! << 16) | (png[at + 2]! << 8) | png[at + 3]!) >>> 0;
    const type = String.fromCharCode(png[at + 4]!, png[at + 5]!, png[at + 6]!, png[at + 7]!);
    if (type === wanted) return true;
    if (type === 'IDAT' || type === 'IEND') return false;
    at += 12 + length;
  }
  return false;
}

/** The bytes pdfkit would inflate to embed this PNG; 0 when it copies the compressed data as it is. */
function pngDecodedBytes(png: Uint8Array, { width, height }: ImageSize): number {
  const bitDepth = png[24]!;
  const colorType = png[25]!;
  const interlaced = png[28] === 1;
  const decoded = colorType === 4 || colorType === 6 || interlaced || (colorType === 3 && pngHasChunk(png, 'tRNS'));
  return decoded ? height * (1 + Math.ceil((width * (PNG_CHANNELS[colorType] ?? 4) * bitDepth) / 8)) : 0;
}

/**
 * What a report does with an image, from its header alone (nothing is
 * decoded to decide): embed it; print IMAGE_TOO_LARGE_TEXT in its place when
 * it is over the product's pixel budget or would take too much to decode; or
 * leave it out when it is missing or not a PNG or JPEG whose size can be read.
 */
export function reportImageUse(bytes: Uint8Array | null | undefined): 'embed' | 'too-large' | 'absent' {
  if (!isPngOrJpeg(bytes)) return 'absent';
  const size = imageHeaderSize(bytes);
  if (!size) return 'absent';
  if (!isImageWithinBudget(size)) return 'too-large';
  if (bytes[0] === 0x89 && pngDecodedBytes(bytes, size) > PNG_DECODE_MAX_BYTES) return 'too-large';
  return 'embed';
}

export function isEmbeddableImage(bytes: Uint8Array | null | undefined): bytes is Uint8Array {
  return reportImageUse(bytes) === 'embed';
}
