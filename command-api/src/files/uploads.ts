import type { FastifyRequest } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import { PHOTO_MAX_BYTES, TICKET_MESSAGES, ValidationError, imageHeaderSize, imageTooLargeMessage, isImageWithinBudget } from '@fsm/contracts';
import type { BlobStore } from '@fsm/eventstore';
import { textProblem } from '../http/text-guard.js';

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
export const INVALID_FILENAME = 'Nom de fichier invalide.';
export const INVALID_FORM = 'Formulaire invalide.';

/**
 * The name a browser sends with a file: a plain name, never a path. We never
 * use it to store anything (files are stored under their hash), but a name
 * with a path or control characters is a forged request: refused.
 */
function isAcceptableUploadName(name: string): boolean {
  return name.length <= 255 && !/[/\\\u0000-\u001f\u007f]/.test(name) && !name.split('.').every((part) => part === '') && !name.includes('..');
}

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
    const problem = textProblem(body);
    if (problem) throw new ValidationError(problem);
    const fields: Record<string, string> = {};
    if (body && typeof body === 'object') {
      for (const [key, value] of Object.entries(body)) if (value !== undefined && value !== null) fields[key] = String(value);
    }
    return { fields, file: null };
  }
  const fields: Record<string, string> = {};
  let file: MultipartForm['file'] = null;
  try {
    // preservePath: the parser would otherwise cut '../../x.png' down to 'x.png'; we want to see it, and refuse it.
    for await (const part of request.parts({ preservePath: true, limits: { fileSize: PHOTO_MAX_BYTES, files: 1, fields: 40, fieldSize: 64 * 1024 } })) {
      if (part.type === 'file') {
        if (part.fieldname !== fileField) {
          part.file.resume();
          throw new ValidationError('Fichier inattendu.');
        }
        if (!isAcceptableUploadName(part.filename ?? '')) {
          part.file.resume();
          throw new ValidationError(INVALID_FILENAME);
        }
        const bytes = await part.toBuffer();
        if (bytes.length > 0) file = { bytes, filename: part.filename };
      } else {
        const value = typeof part.value === 'string' ? part.value : String(part.value ?? '');
        // NUL, lone surrogates, bytes that were not UTF-8 (busboy leaves U+FFFD): refused
        // before the photo is looked at, as on the JSON routes (http/text-guard.ts).
        const problem = textProblem(part.fieldname) ?? textProblem(value);
        if (problem) throw new ValidationError(problem);
        fields[part.fieldname] = value;
      }
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new ValidationError(PHOTO_TOO_LARGE);
    if (code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT') throw new ValidationError(INVALID_FORM);
    // A truncated or malformed multipart body (busboy's "Unexpected end of form", a bad boundary).
    if (!(error instanceof ValidationError) && (error as { statusCode?: number }).statusCode === undefined && error instanceof Error && /form|multipart|boundary/i.test(error.message)) {
      throw new ValidationError(INVALID_FORM);
    }
    throw error;
  }
  return { fields, file };
}

/** Stores a photo after checking its bytes are an image we accept; returns its reference. */
export async function storePhoto(blobs: BlobStore, bytes: Buffer): Promise<string> {
  if (bytes.length > PHOTO_MAX_BYTES) throw new ValidationError(PHOTO_TOO_LARGE);
  const type = await fileTypeFromBuffer(bytes);
  const extension = type ? IMAGE_TYPES[type.mime] : undefined;
  if (!extension || !isPlainImage(bytes, extension)) throw new ValidationError(TICKET_MESSAGES.notAnImage);
  checkImageBudget(bytes, TICKET_MESSAGES.notAnImage);
  return blobs.put(bytes, extension);
}

/**
 * The size the header declares, against the product's budget (contracts
 * image-budget.ts), before anything decodes the picture: the browser showing
 * a thumbnail, the workers putting it in a report. A few hundred KB can
 * declare 12000 × 12000 pixels. A header that cannot be read is not an image
 * any decoder could show either.
 */
function checkImageBudget(bytes: Buffer, unreadable: string): void {
  const size = imageHeaderSize(bytes);
  if (!size) throw new ValidationError(unreadable);
  if (!isImageWithinBudget(size)) throw new ValidationError(imageTooLargeMessage(size));
}

/** Markup or code a browser or server might run if the file were ever served as something else. */
const ACTIVE_CONTENT = /<\s*(script|html|body|iframe|svg|object|embed)\b|<\?php|javascript:/i;

/**
 * The magic bytes say "image"; the rest must not carry something else: a PNG
 * ends at its IEND chunk (nothing may follow: a polyglot PNG+script is
 * refused), and no image of ours carries markup or script text anywhere.
 * Scanning latin1 keeps byte offsets; a chance match in compressed data is
 * vanishingly rare and only costs the user another photo.
 */
function isPlainImage(bytes: Buffer, extension: string): boolean {
  if (ACTIVE_CONTENT.test(bytes.toString('latin1'))) return false;
  if (extension === 'png') return pngEndsAtIend(bytes);
  return true;
}

function pngEndsAtIend(bytes: Buffer): boolean {
  let offset = 8; // signature
  while (offset + 12 <= bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    const end = offset + 12 + length;
    if (end > bytes.length) return false;
    if (type === 'IEND') return end === bytes.length;
    offset = end;
  }
  return false;
}

const PNG_DATA_URL = /^data:image\/png;base64,([A-Za-z0-9+/]+={0,2})$/;
const SIGNATURE_MAX_BYTES = 2 * 1024 * 1024;

/**
 * The PNG bytes of a signature sent as a data URL (the signature pad's
 * output), checked as a photo is; `message` when they are not a PNG. A
 * request checks all its signatures before storing any, so a refused one
 * leaves nothing behind.
 */
export async function signatureBytes(dataUrl: string, message: string): Promise<Buffer> {
  const match = PNG_DATA_URL.exec(dataUrl.trim());
  if (!match) throw new ValidationError(message);
  const bytes = Buffer.from(match[1]!, 'base64');
  if (bytes.length === 0 || bytes.length > SIGNATURE_MAX_BYTES) throw new ValidationError(message);
  const type = await fileTypeFromBuffer(bytes);
  if (type?.mime !== 'image/png' || !isPlainImage(bytes, 'png')) throw new ValidationError(message);
  checkImageBudget(bytes, message);
  return bytes;
}
