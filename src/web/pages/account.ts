// Placeholder until its pages are written.
import type { FastifyInstance } from 'fastify';

export default async function pages(_app: FastifyInstance) {}
