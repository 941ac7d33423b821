import * as contract from '@fleet/contract';
import {
  ApiError,
  DEVICE_BATCH_PATH,
  DeviceBatch,
  DeviceBatchResponse,
  LIVE_PATH,
  LOG_EXPORT_PATH,
  LogExportQuery,
  OSMAND_PATH,
  REPORT_EXPORT_PATH,
  ReportExportQuery,
  WEBHOOK_EVENT_HEADER,
  WEBHOOK_EVENT_ID_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  WebhookEventBody,
  webhookEventTypes,
  type Call,
} from '@fleet/contract';
import { z } from 'zod';
import { HEALTH_PATH, READY_PATH, VERSION_PATH } from './health.routes.js';
import { METRICS_PATH } from './metrics.js';

export const OPENAPI_PATH = '/api/openapi.json';
export const DOCS_PATH = '/api/docs';

/** The calls anyone may make without a token (access/route.ts `auth: 'public'`); openapi.test.ts holds the server to this list. */
export const PUBLIC_CALLS: ReadonlySet<string> = new Set([
  '/api/login',
  '/api/checkToken',
  '/api/client_config',
  '/api/resetpassword_email',
  '/api/password_reset_by_token',
]);

type Json = Record<string, unknown>;

const isCall = (v: unknown): v is Call =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as Call).path === 'string' &&
  (v as Call).path.startsWith('/api/') &&
  (v as Call).request instanceof z.ZodType &&
  (v as Call).response instanceof z.ZodType;

/** Every call the contract defines, once each, in path order. */
export const contractCalls = (): Call[] =>
  [...new Map((Object.values(contract) as unknown[]).filter(isCall).map((c) => [c.path, c] as const)).values()].sort(
    (a, b) => a.path.localeCompare(b.path),
  );

/** JSON Schema 2020-12 (OpenAPI 3.1's dialect) of a zod schema; what JSON cannot say (transforms, refinements) is left open. */
const schemaOf = (schema: z.ZodType, io: 'input' | 'output'): Json => {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    target: 'draft-2020-12',
  }) as Json;
  return rest;
};

const json = (schema: Json, description: string) => ({ description, content: { 'application/json': { schema } } });
const errorRef = (name: string) => ({ $ref: `#/components/responses/${name}` });
const errors = (isPublic: boolean) => ({
  400: errorRef('BadRequest'),
  ...(isPublic ? {} : { 401: errorRef('Unauthorized'), 403: errorRef('Forbidden') }),
  404: errorRef('NotFound'),
  409: errorRef('Conflict'),
  429: errorRef('TooManyRequests'),
  503: errorRef('Unavailable'),
  500: errorRef('Internal'),
});

function callOperation(call: Call): Json {
  const isPublic = PUBLIC_CALLS.has(call.path);
  const name = call.path.slice('/api/'.length);
  return {
    operationId: name,
    summary: name,
    tags: [tagOf(name)],
    ...(isPublic ? { security: [] } : {}),
    requestBody: {
      required: !call.request.safeParse(undefined).success,
      content: { 'application/json': { schema: schemaOf(call.request, 'input') } },
    },
    responses: { 200: json(schemaOf(call.response, 'output'), 'OK'), ...errors(isPublic) },
  };
}

/** Groups for the reading UI, by the call's first word (car_…, account_…, session_…). */
const TAGS: [RegExp, string][] = [
  [
    /^(login|logout|checkToken|me|step_up|totp|company_totp|resetpassword|password_reset|live_ticket|client_config)/,
    'sessions',
  ],
  [/^session_/, 'session selections'],
  [/engine|reserve|cmd/, 'engine control'],
  [/area|template/, 'areas'],
  [/log|gps|data_sync|latest|car_data/, 'telemetry'],
  [/^webhook/, 'webhooks'],
  [/notification|mail/, 'notifications'],
  [/^account/, 'accounts'],
  [/^company/, 'companies'],
  [/^device/, 'terminals'],
  [/^(user|car_user)/, 'customers'],
  [/^car/, 'vehicles'],
];
const tagOf = (name: string) => TAGS.find(([re]) => re.test(name))?.[1] ?? 'other';

const text = (description: string, type = 'text/plain') => ({
  description,
  content: { [type]: { schema: { type: 'string' } } },
});

/** Routes that are not contract calls: the CSV export, the live stream, the device gateway, the probes. */
function otherPaths(): Record<string, Json> {
  const exportQuery = schemaOf(LogExportQuery, 'input') as { properties?: Record<string, Json>; required?: string[] };
  const exportParameters = Object.entries(exportQuery.properties ?? {}).map(([name, schema]) => ({
    name,
    in: 'query',
    required: exportQuery.required?.includes(name) ?? false,
    schema,
  }));
  const csv = { 200: text('CSV (UTF-8 with BOM), streamed', 'text/csv'), ...errors(false) };
  const probe = (summary: string, ok: string) => {
    const operation = (operationId: string) => ({
      operationId,
      summary,
      tags: ['operations'],
      security: [],
      responses: { 200: json({ type: 'object' }, ok), 503: errorRef('Unavailable') },
    });
    // HEAD too: load balancers and uptime monitors probe with it.
    return { get: operation(summary), head: operation(`${summary}_head`) };
  };
  return {
    [LOG_EXPORT_PATH]: {
      get: {
        operationId: 'car_log_export',
        summary: 'car_log_export (CSV)',
        tags: ['telemetry'],
        parameters: exportParameters,
        responses: csv,
      },
      head: {
        operationId: 'car_log_export_head',
        summary: 'car_log_export: headers only',
        tags: ['telemetry'],
        parameters: exportParameters,
        responses: csv,
      },
      post: {
        operationId: 'car_log_export_post',
        summary: 'car_log_export (CSV), the query as a JSON body',
        tags: ['telemetry'],
        requestBody: { required: true, content: { 'application/json': { schema: exportQuery } } },
        responses: csv,
      },
    },
    [REPORT_EXPORT_PATH]: {
      post: {
        operationId: 'report_export',
        summary: 'report_export: 運行日報 or the fleet summary as xlsx, pdf or csv (docs/trips.md)',
        tags: ['trips'],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: schemaOf(ReportExportQuery, 'input') } },
        },
        responses: {
          200: {
            description: 'The file',
            content: {
              'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': {},
              'application/pdf': {},
              'text/csv': {},
            },
          },
          ...errors(false),
        },
      },
    },
    [LIVE_PATH]: {
      get: {
        operationId: 'live',
        summary: 'Live latest states (server-sent events: snapshot, state, expired)',
        tags: ['telemetry'],
        security: [{ bearer: [] }, { liveTicket: [] }],
        responses: { 200: text('An event stream that stays open', 'text/event-stream'), ...errors(false) },
      },
    },
    [DEVICE_BATCH_PATH]: {
      post: {
        operationId: 'device_batch',
        summary: 'A terminal reports records and command results; the answer carries its pending commands',
        tags: ['device gateway'],
        security: [{ terminal: [] }],
        requestBody: { required: true, content: { 'application/json': { schema: schemaOf(DeviceBatch, 'input') } } },
        responses: {
          200: json(schemaOf(DeviceBatchResponse, 'output'), 'Stored (each refused record listed with its reason)'),
          ...errors(false),
        },
      },
    },
    [`${OSMAND_PATH}/{password}`]: Object.fromEntries(
      (['get', 'post'] as const).map((method) => [
        method,
        {
          operationId: `device_osmand_${method}`,
          summary:
            'OsmAnd / Traccar Client: one fix as query parameters (or a form or Traccar Client JSON body); docs/device-protocol.md §10',
          tags: ['device gateway'],
          security: [],
          parameters: [
            {
              name: 'password',
              in: 'path',
              required: true,
              description: "The terminal's password",
              schema: { type: 'string' },
            },
            { name: 'id', in: 'query', description: "The terminal's IMEI (or device_id)", schema: { type: 'string' } },
            ...['lat', 'lon', 'timestamp', 'speed', 'bearing', 'altitude', 'accuracy', 'batt'].map((name) => ({
              name,
              in: 'query',
              schema: { type: 'string' },
            })),
          ],
          responses: {
            200: json(
              {
                type: 'object',
                properties: {
                  accepted: { type: 'integer' },
                  duplicate: { type: 'boolean' },
                  server_time: { type: 'string' },
                },
              },
              'Stored',
            ),
            ...errors(true),
            401: errorRef('Unauthorized'),
          },
        },
      ]),
    ),
    [HEALTH_PATH]: probe('healthz', 'The process runs'),
    [READY_PATH]: probe('readyz', 'The database answers and every migration is applied'),
    [VERSION_PATH]: probe('version', 'The version and the commit'),
    [METRICS_PATH]: {
      get: {
        operationId: 'metrics',
        summary: 'Prometheus metrics (Bearer METRICS_TOKEN when the server sets one)',
        tags: ['operations'],
        security: [{}, { metrics: [] }],
        responses: { 200: text('Prometheus text exposition format'), 401: errorRef('Unauthorized') },
      },
    },
    [OPENAPI_PATH]: {
      get: {
        operationId: 'openapi',
        summary: 'This document',
        tags: ['operations'],
        security: [],
        responses: { 200: json({ type: 'object' }, 'OpenAPI 3.1') },
      },
    },
    [DOCS_PATH]: {
      get: {
        operationId: 'docs',
        summary: 'A reading UI for this document',
        tags: ['operations'],
        security: [],
        responses: { 200: text('HTML', 'text/html') },
      },
    },
  };
}

/** What a webhook receiver gets (OpenAPI 3.1 `webhooks`): one signed POST per event, docs/notifications.md. */
function webhookDocs(): Json {
  const header = (name: string, description: string) => ({
    name,
    in: 'header',
    required: true,
    description,
    schema: { type: 'string' },
  });
  return {
    fleetEvent: {
      post: {
        summary: 'One event for a registered webhook receiver',
        description: `Event types: ${webhookEventTypes.join(', ')}. Answer 2xx within 10 s; anything else is retried with backoff (1 min × 2^(n-1), at most 6 h, 12 attempts). Deduplicate by the event id.`,
        parameters: [
          header(WEBHOOK_SIGNATURE_HEADER, 't=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" with the secret>'),
          header(WEBHOOK_EVENT_HEADER, 'The event type'),
          header(WEBHOOK_EVENT_ID_HEADER, 'The event id, the same on every retry'),
        ],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: schemaOf(WebhookEventBody, 'output') } },
        },
        responses: { 200: { description: 'Received' } },
      },
    },
  };
}

const errorResponse = (description: string) => json({ $ref: '#/components/schemas/ApiError' }, description);

/** The OpenAPI 3.1 document of the whole server, built from the contract's schemas. */
export function buildOpenApiDocument(opts: { version: string; serverUrl?: string }): Json {
  const paths: Record<string, Json> = {};
  for (const call of contractCalls()) paths[call.path] = { post: callOperation(call) };
  Object.assign(paths, otherPaths());
  return {
    openapi: '3.1.0',
    info: {
      title: 'フリートコンソール API',
      version: opts.version,
      description:
        'Every call is POST with a JSON body and answers JSON; errors answer `{ code, message, errors? }` with a Japanese message. ' +
        'Sign in with /api/login and send the token as `Authorization: Bearer <token>`. Terminals use HTTP Basic on /device/v1/batch (docs/device-protocol.md).',
    },
    ...(opts.serverUrl ? { servers: [{ url: opts.serverUrl }] } : {}),
    security: [{ bearer: [] }],
    paths,
    webhooks: webhookDocs(),
    components: {
      schemas: { ApiError: schemaOf(ApiError, 'output') },
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'The token from /api/login' },
        liveTicket: {
          type: 'apiKey',
          in: 'query',
          name: 'ticket',
          description: 'A single-use ticket from /api/live_ticket (EventSource cannot send headers)',
        },
        terminal: { type: 'http', scheme: 'basic', description: "The terminal's car_device_id and password" },
        metrics: { type: 'http', scheme: 'bearer', description: 'METRICS_TOKEN' },
      },
      responses: {
        BadRequest: errorResponse('The request is invalid; `errors` holds a message per field'),
        Unauthorized: errorResponse('No valid token (or OTP_REQUIRED: the sign-in needs the TOTP code)'),
        Forbidden: errorResponse('Outside the caller’s role or company (or STEP_UP_REQUIRED, TOTP_SETUP_REQUIRED)'),
        NotFound: errorResponse('No such record in the caller’s scope'),
        Conflict: errorResponse('The record changed or already exists'),
        TooManyRequests: errorResponse('Rate limited; try again later'),
        Unavailable: errorResponse('The database does not answer'),
        Internal: errorResponse('A fault of the server (logged with the request id)'),
      },
    },
  };
}
