import type { FastifyRequest } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import { PHOTO_MAX_BYTES, TICKET_MESSAGES, ValidationError } from '@fsm/contracts';
import type { BlobStore } from '@fsm/eventstore';

/** Image types accepted for photos, decided from the bytes, never from the name. */
const IMAGE_TYPES: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/heic': 'heic',
  'image/heif': 'heif',
  'image/avif': 'avif',
};

export const PHOTO_TOO_LARGE = 'La photo dépasse 8 Mo. Merci de choisir une image plus petite.';

export interface MultipartForm {
  fields: Record<string, string>;
  file: { bytes: Buffer; filename: string } | null;
}

/**
 * Reads a multipart form: text fields, and at most one file (the photo).
 * Unknown extra files are refused rather than silently dropped.
 */
export async function readMultipartForm(request: FastifyRequest, fileField = 'photo'): Promise<MultipartForm> {
  if (!request.isMultipart()) {
    // Also accept JSON or url-encoded bodies without a photo (API clients, tests).
    const body = request.body;
    const fields: Record<string, string> = {};
    if (body && typeof body === 'object') {
      for (const [key, value] of Object.entries(body)) if (value !== undefined && value !== null) fields[key] = String(value);
    }
    return { fields, file: null };
  }
  const fields: Record<string, string> = {};
  let file: MultipartForm['file'] = null;
  try {
    for await (const part of request.parts({ limits: { fileSize: PHOTO_MAX_BYTES, files: 1, fields: 40, fieldSize: 64 * 1024 } })) {
      if (part.type === 'file') {
        if (part.fieldname !== fileField) {
          part.file.resume();
          throw new ValidationError('Fichier inattendu.');
        }
        const bytes = await part.toBuffer();
        if (bytes.length > 0) file = { bytes, filename: part.filename };
      } else {
        fields[part.fieldname] = typeof part.value === 'string' ? part.value : String(part.value ?? '');
      }
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new ValidationError(PHOTO_TOO_LARGE);
    if (code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT') throw new ValidationError('Formulaire invalide.');
    throw error;
  }
  return { fields, file };
}

/** Stores a photo after checking its bytes are an image we accept; returns its reference. */
export async function storePhoto(blobs: BlobStore, bytes: Buffer): Promise<string> {
  if (bytes.length > PHOTO_MAX_BYTES) throw new ValidationError(PHOTO_TOO_LARGE);
  const type = await fileTypeFromBuffer(bytes);
  const extension = type ? IMAGE_TYPES[type.mime] : undefined;
  if (!extension) throw new ValidationError(TICKET_MESSAGES.notAnImage);
  return blobs.put(bytes, extension);
}

const PNG_DATA_URL = /^data:image\/png;base64,([A-Za-z0-9+/]+={0,2})$/;
const SIGNATURE_MAX_BYTES = 2 * 1024 * 1024;

/** Stores a signature sent as a PNG data URL (the signature pad's output); checks the bytes too. */
export async function storeSignature(blobs: BlobStore, dataUrl: string, message: string): Promise<string> {
  const match = PNG_DATA_URL.exec(dataUrl.trim());
  if (!match) throw new ValidationError(message);
  const bytes = Buffer.from(match[1]!, 'base64');
  if (bytes.length === 0 || bytes.length > SIGNATURE_MAX_BYTES) throw new ValidationError(message);
  const type = await fileTypeFromBuffer(bytes);
  if (type?.mime !== 'image/png') throw new ValidationError(message);
  return blobs.put(bytes, 'png');
}

/** The URL the UI shows a stored file at. References are unguessable content hashes. */
export function fileUrl(ref: string | null): string | null {
  return ref ? `/api/files/${ref}` : null;
}
