/*
 * What a report shows, as plain data: built by the job from the log and the
 * read models, then handed to the render thread (structured clone), which
 * only lays it out. Labels (dates, durations) are already French strings.
 * This file and the layout files import no workspace package, so the render
 * thread loads them alone.
 */

export interface ReportSignatureFacts {
  /** PNG or JPEG bytes; null when the stored file is missing or not an image pdfmake reads. */
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
    technicien: { prenom: string; nom: string };
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

export interface RenderInput {
  facts: ReportFacts;
  /** An agency template already filled (variables replaced, unknown ones removed); null: the built-in layout. */
  templateHtml: string | null;
}

/** PNG or JPEG (what pdfkit embeds), decided from the bytes. */
export function isEmbeddableImage(bytes: Uint8Array | null | undefined): bytes is Uint8Array {
  if (!bytes || bytes.length < 8) return false;
  const png = bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47;
  const jpeg = bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
  return png || jpeg;
}
