// A multipart form carrying one bot file (the field "file", read as UTF-8)
// and text fields, read the same way by the submit page, the API and the
// admin's Dummy upload: other file fields are drained and ignored, and a file
// past the cap is the judge's "too large" refusal, which says the file's size.

import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { decodeUtf8 } from '../domain/submissions.ts';
import { multipartRefusal, tooLarge } from './errors.ts';

/**
 * How far past the cap a refused file is still counted, to tell its size: the
 * parser's own per-file limit while reading a bot file. The bytes past the cap
 * are counted and dropped, never kept; a client sends them anyway.
 */
export const COUNTED_FILE_BYTES = 64 * 1024 * 1024;

/** The multipart parser's options for a form with a bot file of at most `maxBytes` (read with readBotFile). */
export const botFileParts = (maxBytes: number) => ({ limits: { fileSize: Math.max(maxBytes, COUNTED_FILE_BYTES) } });

/**
 * A file part's bytes, at most `maxBytes`; a larger file is read to its end
 * (or COUNTED_FILE_BYTES) and refused with its size, in the words the domain
 * uses for a JSON upload ("file too large: N bytes, at most M").
 */
export async function readBotFile(part: MultipartFile, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of part.file as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= maxBytes) chunks.push(chunk);
    else chunks.length = 0;
  }
  if (part.file.truncated) throw tooLarge(`file too large: more than ${size} bytes, at most ${maxBytes}`);
  if (size > maxBytes) throw tooLarge(`file too large: ${size} bytes, at most ${maxBytes}`);
  return Buffer.concat(chunks);
}

export interface FileForm {
  fields: Record<string, string>;
  /** The file's text; undefined when the form had no "file" part. */
  source?: string;
  filename?: string;
}

export async function readFileForm(request: FastifyRequest, maxBytes: number): Promise<FileForm> {
  const form: FileForm = { fields: {} };
  try {
    for await (const part of request.parts(botFileParts(maxBytes))) {
      if (part.type !== 'file') form.fields[part.fieldname] = String(part.value);
      else if (part.fieldname !== 'file') await readBotFile(part, maxBytes);
      else {
        form.source = decodeUtf8(await readBotFile(part, maxBytes));
        form.filename = part.filename;
      }
    }
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge(`file too large: more than ${maxBytes} bytes, at most ${maxBytes}`);
    throw multipartRefusal(err) ?? err;
  }
  return form;
}
