// A bot's source as plain text (GET /api/submissions/:id/source and the submission page's
// source link): its file name made safe for the header, kept out of shared caches.

import type { FastifyReply } from 'fastify';

export function sendSource(reply: FastifyReply, filename: string, source: string, disposition: 'inline' | 'attachment' = 'inline') {
  return reply
    .header('content-type', 'text/plain; charset=utf-8')
    .header('content-disposition', `${disposition}; filename="${filename.replace(/["\\\r\n]/g, '_')}"`)
    .header('cache-control', 'private, no-store')
    .send(source);
}
