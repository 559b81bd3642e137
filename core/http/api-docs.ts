import { z } from 'zod';
import { idParam } from './validate.js';
import { ErrorCode } from '../contract/error-codes.js';

export type DocMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * A public route's description, declared beside the route with the schemas the route itself
 * validates with: the OpenAPI document (GET /api/openapi.json) is built from these, never
 * written by hand.
 */
export interface RouteDoc {
  method: DocMethod;
  /** The path under /api as the router has it (`/tickets/:id`); each `:param` is an id unless `params` says otherwise. */
  path: string;
  /** The resource it belongs to: the document's tag and an API token's scope. */
  tag: string;
  summary: string;
  description?: string;
  params?: z.ZodObject;
  query?: z.ZodObject;
  /** Request headers the route reads (other than Authorization). */
  headers?: z.ZodObject;
  /** A JSON body. */
  body?: z.ZodType;
  /** A multipart/form-data body: its fields, and the field holding files (several). */
  multipart?: { fields: z.ZodObject; files: string };
  answer: { status: number; description: string; schema?: z.ZodType };
  /** How the caller authenticates: a session or company API token (default), or the connection's token. */
  auth?: 'bearer' | 'connection';
}

type Json = Record<string, unknown>;

/** zod → JSON Schema 2020-12 (OpenAPI 3.1's dialect), as the request is sent (before coercion and defaults apply). */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Json;
  return rest;
}

const errorBody = z.object({ error: z.string().meta({ example: ErrorCode.ERR_NO_TICKET_FOUND }), message: z.string() });

const ERROR_ANSWERS: Record<string, string> = {
  '400': 'Invalid input (ERR_VALIDATION, with the field in the message)',
  '401': 'No, an expired or a revoked token',
  '403': 'Not allowed: the profile, the token\'s scopes or the plan',
  '404': 'Not found in the caller\'s company',
};

/** `/tickets/:id` → `/tickets/{id}`. */
function openApiPath(path: string): string {
  return path.replace(/:(\w+)/g, '{$1}');
}

function parameters(doc: RouteDoc): Json[] {
  const names = [...doc.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  const shape = doc.params?.shape ?? {};
  const inPath = names.map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: jsonSchema((shape[name] as z.ZodType | undefined) ?? idParam, 'input'),
  }));
  const named = (place: 'query' | 'header', object: z.ZodObject | undefined) => Object.entries(object?.shape ?? {}).map(([name, field]) => {
    const schema = field as z.ZodType;
    const json = jsonSchema(schema, 'input');
    return {
      name,
      in: place,
      required: !schema.safeParse(undefined).success,
      schema: json,
      ...(typeof json.description === 'string' ? { description: json.description } : {}),
    };
  });
  return [...inPath, ...named('query', doc.query), ...named('header', doc.headers)];
}

function requestBody(doc: RouteDoc): Json | undefined {
  const content: Json = {};
  if (doc.body) content['application/json'] = { schema: jsonSchema(doc.body, 'input') };
  if (doc.multipart) {
    const fields = jsonSchema(doc.multipart.fields, 'input') as { properties?: Json; required?: string[] };
    content['multipart/form-data'] = {
      schema: {
        type: 'object',
        properties: { ...fields.properties, [doc.multipart.files]: { type: 'array', items: { type: 'string', contentMediaType: 'application/octet-stream' } } },
        ...(fields.required?.length ? { required: fields.required } : {}),
      },
    };
  }
  return Object.keys(content).length > 0 ? { required: true, content } : undefined;
}

function operation(doc: RouteDoc): Json {
  const answer: Json = { description: doc.answer.description };
  if (doc.answer.schema) answer.content = { 'application/json': { schema: jsonSchema(doc.answer.schema, 'output') } };
  const errors = Object.fromEntries(
    Object.entries(ERROR_ANSWERS).map(([status, description]) => [status, { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } }]),
  );
  const body = requestBody(doc);
  return {
    operationId: `${doc.method.toLowerCase()}${openApiPath(doc.path).replace(/[{}]/g, '').replace(/[/-](\w)/g, (_, c: string) => c.toUpperCase())}`,
    tags: [doc.tag],
    summary: doc.summary,
    ...(doc.description ? { description: doc.description } : {}),
    security: [doc.auth === 'connection' ? { connectionToken: [] } : { bearer: [] }],
    parameters: parameters(doc),
    ...(body ? { requestBody: body } : {}),
    responses: { [String(doc.answer.status)]: answer, ...errors },
  };
}

/** The OpenAPI 3.1 document of the described routes, paths under /api. */
export function openApiDocument(docs: readonly RouteDoc[], info: { version: string; serverUrl: string }): Json {
  const paths: Record<string, Json> = {};
  for (const doc of docs) {
    const path = `/api${openApiPath(doc.path)}`;
    paths[path] = { ...paths[path], [doc.method.toLowerCase()]: operation(doc) };
  }
  const tags = [...new Set(docs.map((doc) => doc.tag))].map((name) => ({ name }));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Atende API',
      version: info.version,
      description:
        'The REST routes the Atende web app uses, open to other systems with a company API token (`Authorization: Bearer atk_…`, made by an admin on the API tokens page) within its scopes: GET needs the resource\'s read scope, any other method its write scope. POST /api/messages/send takes a connection\'s token instead. Errors answer `{ error, message }`.',
    },
    servers: [{ url: info.serverUrl }],
    tags,
    paths,
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'A company API token (atk_…) or a session\'s access token' },
        connectionToken: { type: 'http', scheme: 'bearer', description: 'A connection\'s messages API token (atd_…)' },
      },
      schemas: { Error: jsonSchema(errorBody, 'output') },
    },
  };
}
