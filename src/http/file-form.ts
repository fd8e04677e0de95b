// A multipart form carrying one bot file (the field "file", read as UTF-8)
// and text fields, read the same way by the admin's API and its page: other
// file fields are drained and ignored, and a file past the upload cap is the
// judge's "too large" refusal.

import type { FastifyRequest } from 'fastify';
import { decodeUtf8 } from '../domain/submissions.ts';
import { multipartRefusal, tooLarge } from './errors.ts';

export interface FileForm {
  fields: Record<string, string>;
  /** The file's text; undefined when the form had no "file" part. */
  source?: string;
  filename?: string;
}

export async function readFileForm(request: FastifyRequest, maxBytes: number): Promise<FileForm> {
  const form: FileForm = { fields: {} };
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file') form.fields[part.fieldname] = String(part.value);
      else if (part.fieldname !== 'file') await part.toBuffer();
      else {
        form.source = decodeUtf8(await part.toBuffer());
        form.filename = part.filename;
      }
    }
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge(`file too large: at most ${maxBytes} bytes`);
    throw multipartRefusal(err) ?? err;
  }
  return form;
}
