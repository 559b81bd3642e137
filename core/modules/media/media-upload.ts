import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Next } from 'koa';
import { koaBody } from 'koa-body';
import { AppError, ValidationError } from '../../errors.js';
import type { AppContext } from '../../http/context.js';
import { displayFileName } from '../../storage/media-storage.js';
import { ErrorCode } from '../../contract/error-codes.js';

/** What WhatsApp can carry as an attachment, by extension (the type the client declares is not trusted). */
export const ATTACHMENT_EXTENSIONS = new Set([
  ...['.jpg', '.jpeg', '.png', '.gif', '.webp'],
  ...['.mp3', '.ogg', '.opus', '.m4a', '.aac', '.wav', '.amr'],
  ...['.mp4', '.3gp', '.mov', '.webm'],
  ...['.pdf', '.txt', '.csv', '.doc', '.docx', '.xls', '.xlsx', '.ppt', '.pptx', '.odt', '.ods', '.zip'],
]);

export const MAX_UPLOAD_BYTES = 16 * 1024 * 1024;

export interface UploadedFile {
  /** The name the user's file had, made storable (displayFileName: no folder, no control characters, at most 255). */
  name: string;
  /** Its temporary copy, removed when the request ends (MediaStorage.save takes it from there). */
  path: string;
}

/**
 * The order files began in their request. Formidable reports a file when it has been written, so a
 * small file can overtake a larger one sent before it; the caption and the send order follow this.
 */
const partOrder = new WeakMap<object, number>();
let partsSeen = 0;

function tooLarge(maxBytes: number): AppError {
  return new AppError(ErrorCode.ERR_MEDIA_TOO_LARGE, 413, `Files may have at most ${Math.floor(maxBytes / (1024 * 1024))} MB`);
}

function uploadError(message: string): ValidationError {
  return new ValidationError(message, undefined, ErrorCode.ERR_MEDIA_UPLOAD);
}

export interface MultipartOptions {
  /** Largest file (bytes). */
  maxBytes?: number;
  /** How many files one request may carry (their total is maxFiles × maxBytes at most). */
  maxFiles?: number;
  /** Let a request that is not multipart through untouched (the route also takes JSON). */
  optional?: boolean;
}

/**
 * Parses a multipart body on the route it is put on (the app's body parser leaves multipart
 * alone): files of at most `maxBytes` each, written to temporary files that are removed when the
 * request ends, whatever its outcome; a larger one is cut off and answered 413.
 */
export function multipartBody({ maxBytes = MAX_UPLOAD_BYTES, maxFiles = 1, optional = false }: MultipartOptions = {}) {
  const maxTotal = maxBytes * maxFiles;
  const parser = koaBody({
    multipart: true,
    urlencoded: false,
    json: false,
    text: false,
    formidable: {
      maxFiles,
      maxFileSize: maxBytes,
      maxTotalFileSize: maxTotal,
      maxFieldsSize: 256 * 1024,
      onFileBegin: (_name, file) => partOrder.set(file, partsSeen++),
    },
    onError: (err) => {
      throw (err as { httpCode?: number }).httpCode === 413 ? tooLarge(maxBytes) : uploadError(`Upload failed: ${err.message}`);
    },
  });
  return async (ctx: AppContext, next: Next): Promise<void> => {
    if (!ctx.is('multipart')) {
      if (optional) return next();
      throw uploadError('Send the file as multipart/form-data');
    }
    // A declared length far over the limit is refused before anything is read.
    if (Number(ctx.get('Content-Length')) > maxTotal + 256 * 1024) throw tooLarge(maxBytes);
    try {
      await parser(ctx, next);
    } finally {
      const files = Object.values(ctx.request.files ?? {}).flat();
      await Promise.all(files.map((file) => rm(file.filepath, { force: true })));
    }
  };
}

/**
 * The request's uploaded files (of `field`, or of any field), in the order they were sent;
 * refused when there is none, one is empty or of an extension not in `extensions`.
 */
export function takeUploads(ctx: AppContext, field?: string, extensions = ATTACHMENT_EXTENSIONS): UploadedFile[] {
  const all = Object.values(ctx.request.files ?? {}).flat();
  const chosen = field === undefined ? all : ([] as typeof all).concat(ctx.request.files?.[field] ?? []);
  if (chosen.length === 0) throw uploadError(`${field ?? 'file'}: Obrigatório`);
  const inOrder = [...chosen].sort((x, y) => (partOrder.get(x) ?? 0) - (partOrder.get(y) ?? 0));
  return inOrder.map((file) => {
    const name = displayFileName(file.originalFilename ?? '');
    if (file.size === 0) throw uploadError(`${field ?? 'file'}: ${name || 'file'} is empty`);
    if (!extensions.has(path.extname(name).toLowerCase())) {
      throw new AppError(ErrorCode.ERR_MEDIA_TYPE_NOT_ALLOWED, 415, 'This type of file cannot be attached');
    }
    return { name, path: file.filepath };
  });
}

/** The request's one uploaded file (see takeUploads). */
export function takeUpload(ctx: AppContext, extensions = ATTACHMENT_EXTENSIONS): UploadedFile {
  const [file] = takeUploads(ctx, undefined, extensions);
  return file!;
}
