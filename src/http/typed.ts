// The app as its routes see it: what a request carries (params, querystring, body, headers)
// typed by the route's schemas through fastify's type provider, TypeBox's Static (of a TypeBox
// schema from src/http/schemas.ts, or of a JSON schema literal written in the route), so a
// handler's request is the type its schema validates and no route restates it in a generic.
// Answers are typed by their handlers (the domain's types): the response schemas document and
// serialize them (a Date goes out as a date-time string, which a Static type would call string).

import type { FastifyInstance, FastifyTypeProvider } from 'fastify';
import type { Static, TSchema } from 'typebox';

export interface RequestTypeProvider extends FastifyTypeProvider {
  validator: this['schema'] extends TSchema ? Static<this['schema']> : unknown;
  serializer: unknown;
}

export const typed = (app: FastifyInstance) => app.withTypeProvider<RequestTypeProvider>();

export type TypedApp = ReturnType<typeof typed>;
